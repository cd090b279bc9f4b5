package dev.blockcache.sim.policy;

import dev.blockcache.sim.trace.Trace;
import java.util.SplittableRandom;

/** Small synthetic traces for the policy tests. */
final class Traces {
  private Traces() {}

  static Trace of(long... keys) {
    return new Trace("test", keys);
  }

  /** {@code length} keys drawn uniformly from {@code [0, keys)} with a fixed seed. */
  static Trace uniform(int keys, int length, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] trace = new long[length];
    for (int i = 0; i < length; i++) {
      trace[i] = random.nextInt(keys);
    }
    return new Trace("uniform", trace);
  }

  /** Whether each access of {@code trace} hits in {@code policy}, in order; closes the policy. */
  static boolean[] hits(Policy policy, Trace trace) {
    boolean[] hits = new boolean[trace.length()];
    try (policy) {
      for (int i = 0; i < hits.length; i++) {
        hits[i] = policy.access(trace.key(i));
      }
    }
    return hits;
  }

  static int count(boolean[] hits) {
    int n = 0;
    for (boolean hit : hits) {
      n += hit ? 1 : 0;
    }
    return n;
  }

  static double ratio(Policy policy, Trace trace) {
    return (double) count(hits(policy, trace)) / trace.length();
  }
}
