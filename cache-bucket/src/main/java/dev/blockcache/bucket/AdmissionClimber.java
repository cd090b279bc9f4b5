package dev.blockcache.bucket;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CacheStats;
import dev.blockcache.stats.StatsRecorder;

/**
 * Tunes how eagerly the tinylfu policy admits: the admission bias, added to a new block's estimated frequency before
 * it is compared with its victim's. A high bias admits nearly everything (good when recency decides: a new block is
 * likely read again soon); a low one admits only blocks clearly more popular than what they displace (good for loops,
 * scans and skewed workloads). Which is best depends on the workload and changes with it, so the bias climbs the
 * hit ratio: after each period of {@link #periodRequests} requests it moves one step in the direction that last
 * raised the hit ratio, and turns round when the hit ratio fell (Caffeine adapts its window size the same way).
 *
 * <p>Thread-safety: not thread-safe; called under the {@link SpaceReclaimer}'s lock.
 */
final class AdmissionClimber {
  /** Lowest bias: a block must beat its victim by 4 estimated accesses, which keeps a loop's blocks in place. */
  static final int MIN_BIAS = -4;
  /** Highest bias: above the sketch's largest count, so every block is admitted (recency only). */
  static final int MAX_BIAS = 16;
  /** Requests per period per cached block: 2 cache-fills of requests, enough to compare hit ratios. */
  static final int REQUESTS_PER_ENTRY = 2;
  /** Fewest requests per period, so that a tiny cache does not judge on noise. */
  static final int MIN_PERIOD = 512;
  /**
   * Most requests per period: 4,096, so that a large cache still takes a step every few thousand requests and can
   * cross the whole bias range while a workload lasts (in the simulator, longer periods left large caches stuck
   * near their starting bias on traces where recency decides).
   */
  static final int MAX_PERIOD = 4096;

  /** Calls between two looks at the request counters: 32 keeps the snapshot off most admissions. */
  static final int CHECK_EVERY = 32;

  private final StatsRecorder stats;
  private int sinceCheck;
  private int bias;
  private int direction = -1;
  private long periodStartRequests;
  private long periodStartHits;
  private double previousHitRatio = -1;

  AdmissionClimber(StatsRecorder stats) {
    this.stats = stats;
  }

  /**
   * The bias now. Every {@value #CHECK_EVERY} calls it first looks whether {@code entries} cached blocks' worth of
   * requests have passed, and if so ends the period.
   */
  int bias(long entries) {
    if (++sinceCheck < CHECK_EVERY) {
      return bias;
    }
    sinceCheck = 0;
    CacheStats s = stats.snapshot(0, 0, new long[BlockCategory.COUNT]);
    long requests = s.requestCount() - periodStartRequests;
    if (requests >= periodRequests(entries)) {
      double hitRatio = (double) (s.hitCount() - periodStartHits) / requests;
      if (previousHitRatio >= 0 && hitRatio < previousHitRatio) {
        direction = -direction;
      }
      bias = Math.max(MIN_BIAS, Math.min(MAX_BIAS, bias + direction));
      previousHitRatio = hitRatio;
      periodStartRequests = s.requestCount();
      periodStartHits = s.hitCount();
    }
    return bias;
  }

  /** Requests per period for a cache of {@code entries} blocks. */
  static long periodRequests(long entries) {
    return Math.max(MIN_PERIOD, Math.min(MAX_PERIOD, REQUESTS_PER_ENTRY * entries));
  }
}
