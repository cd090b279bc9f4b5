package dev.blockcache.bucket;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheResult;
import java.util.function.LongSupplier;

/**
 * Whether a block offered to the L2 is written at all: the write budget first ({@link WriteBudget}, if
 * {@code hbase.bucketcache.admission.max.write.rate} is set), then the eviction policy's admission
 * ({@link SpaceReclaimer#admit}). A declined block is counted by reason ({@link BucketCounters#notAdmitted}); it is
 * not a failed insertion.
 *
 * <p>Thread-safety: safe for concurrent use (its parts are).
 */
final class Admission {
  private final SpaceReclaimer reclaimer;
  private final BucketCounters counters;
  /** Null when the write rate is unbounded. */
  private final WriteBudget budget;

  Admission(BucketCacheConfig config, long largestItem, SpaceReclaimer reclaimer, BucketCounters counters,
      LongSupplier clockMs) {
    this.reclaimer = reclaimer;
    this.counters = counters;
    this.budget = config.maxWriteRate() > 0 ? new WriteBudget(config.maxWriteRate(), largestItem, clockMs) : null;
  }

  /**
   * Decides on a block of {@code stored} bytes (header and block) under {@code key}; under tinylfu an admission into
   * a full cache evicts the block it displaces.
   *
   * @return null when admitted, else why not ({@link CacheResult#OVER_WRITE_BUDGET} or
   *     {@link CacheResult#NOT_ADMITTED})
   */
  CacheResult admit(BlockKey key, int stored) {
    if (budget != null && !budget.tryTake(stored)) {
      counters.notAdmitted(CacheResult.OVER_WRITE_BUDGET);
      return CacheResult.OVER_WRITE_BUDGET;
    }
    if (!reclaimer.admit(key, stored)) {
      if (budget != null) {
        budget.giveBack(stored);
      }
      counters.notAdmitted(CacheResult.NOT_ADMITTED);
      return CacheResult.NOT_ADMITTED;
    }
    return null;
  }
}
