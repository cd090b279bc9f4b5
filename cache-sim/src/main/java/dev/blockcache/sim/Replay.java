package dev.blockcache.sim;

import dev.blockcache.sim.policy.CacheSetup;
import dev.blockcache.sim.policy.Policy;
import dev.blockcache.sim.policy.PolicyKind;
import dev.blockcache.sim.trace.Trace;

/**
 * Replays a trace through one policy at one cache size: every access in order, counting hits; the policy is closed
 * afterwards.
 *
 * <p>Thread-safety: stateless.
 */
final class Replay {
  private Replay() {}

  static HitRatio run(Trace trace, double fraction, PolicyKind kind, CacheSetup setup) {
    int blocks = HitRatio.blocksFor(fraction, trace.distinctKeys());
    long hits = 0;
    long writes;
    try (Policy policy = kind.newPolicy(trace, blocks, setup)) {
      for (int i = 0; i < trace.length(); i++) {
        if (policy.access(trace.key(i))) {
          hits++;
        }
      }
      writes = policy.writes();
    }
    return new HitRatio(trace.name(), trace.length(), trace.distinctKeys(), fraction, blocks, kind, hits, writes);
  }
}
