package dev.blockcache.sim;

import dev.blockcache.sim.policy.CacheSetup;
import dev.blockcache.sim.policy.Policy;
import dev.blockcache.sim.policy.PolicyKind;
import dev.blockcache.sim.trace.Trace;

/**
 * Replays a trace through one policy at one cache size: every access in order, counting hits; the policy is closed
 * afterwards. A policy whose result depends on the keys' hashes ({@link PolicyKind#hashesKeys}) is replayed
 * {@code runs} times, each on a new cache with the trace's keys relabelled by a different one-to-one map
 * ({@link #relabel}; the first run keeps them), and the result is the mean: the same accesses in the same order, so
 * only what hashing decides (sketch collisions, index order, random admission) differs between runs.
 *
 * <p>Thread-safety: stateless.
 */
final class Replay {
  private Replay() {}

  static HitRatio run(Trace trace, double fraction, PolicyKind kind, CacheSetup setup, int runs) {
    int blocks = HitRatio.blocksFor(fraction, trace.distinctKeys());
    int replays = kind.hashesKeys() ? runs : 1;
    long hits = 0;
    long writes = 0;
    for (int run = 0; run < replays; run++) {
      try (Policy policy = kind.newPolicy(trace, blocks, setup)) {
        for (int i = 0; i < trace.length(); i++) {
          if (policy.access(relabel(trace.key(i), run))) {
            hits++;
          }
        }
        writes = policy.writes() < 0 ? -1 : writes + policy.writes();
      }
    }
    return new HitRatio(trace.name(), trace.length(), trace.distinctKeys(), fraction, blocks, kind,
        Math.round((double) hits / replays), writes < 0 ? -1 : Math.round((double) writes / replays));
  }

  /**
   * {@code key} under run {@code run}'s labels: itself in run 0, else mixed with the run number and multiplied by an
   * odd constant. Both steps are one-to-one on 64-bit keys, so distinct keys stay distinct.
   */
  static long relabel(long key, int run) {
    return run == 0 ? key : (key ^ (run * 0x9E37_79B9_7F4A_7C15L)) * 0xBF58_476D_1CE4_E5B9L;
  }
}
