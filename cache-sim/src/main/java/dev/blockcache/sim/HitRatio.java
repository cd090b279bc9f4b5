package dev.blockcache.sim;

import dev.blockcache.sim.policy.PolicyKind;

/**
 * One cell of the simulator's table: a trace replayed through one policy at one cache size.
 *
 * <p>Thread-safety: immutable.
 *
 * @param trace the trace's name
 * @param accesses the accesses replayed
 * @param distinctKeys the trace's distinct keys
 * @param fraction the cache size as a fraction of {@code distinctKeys}
 * @param blocks the cache size in blocks: {@code max(1, round(fraction × distinctKeys))}
 * @param policy the policy
 * @param hits the accesses that hit (the mean over the replays of a hash-dependent cache, see {@link Replay})
 * @param writes blocks the cache wrote (an L2's slot writes: misses it admitted; a mean as {@code hits}), or -1
 *     where not counted
 */
public record HitRatio(String trace, int accesses, int distinctKeys, double fraction, int blocks, PolicyKind policy,
    long hits, long writes) {

  /** Hits per access, in [0, 1]. */
  public double ratio() {
    return accesses == 0 ? 0 : (double) hits / accesses;
  }

  /** The cache size in blocks for {@code fraction} of {@code distinctKeys}, at least one. */
  public static int blocksFor(double fraction, int distinctKeys) {
    return (int) Math.max(1, Math.round(fraction * distinctKeys));
  }
}
