package dev.blockcache.hbase;

import dev.blockcache.api.CacheStats;
import java.util.function.Supplier;

/**
 * HBase's {@link org.apache.hadoop.hbase.io.hfile.CacheStats} for the L2, filled from two sources: hits and misses
 * are recorded here by the adapter with HBase's own arguments (caching, primary replica, block type, and HBase's rule
 * that a repeated lookup's miss is counted once), so every per-type and primary counter a RegionServer reports
 * means what it means over HBase's caches; evictions and failed insertions happen inside our L2, so their getters
 * read the L2's counters.
 *
 * <p>Age at eviction is not tracked (the L2's index keeps no insertion time): its snapshot stays empty.
 *
 * <p>Thread-safety: safe for concurrent use (HBase's counters are adders; the L2's stats are snapshots).
 */
final class L2CacheStats extends org.apache.hadoop.hbase.io.hfile.CacheStats {
  private final Supplier<CacheStats> l2;

  /** Stats whose eviction and failure counters come from {@code l2}'s snapshots. */
  L2CacheStats(Supplier<CacheStats> l2) {
    super("blockcache-L2");
    this.l2 = l2;
  }

  /** Eviction runs of the L2 (HBase: "evictionCount"). */
  @Override
  public long getEvictionCount() {
    return l2.get().evictionRunCount();
  }

  /**
   * Blocks the L2 evicted to make room (HBase: "evictedBlockCount"). Unlike HBase's BucketCache, explicit evicts and
   * evict-by-file are not counted: the L2 counts only what its capacity forced out.
   */
  @Override
  public long getEvictedCount() {
    return l2.get().evictedBlockCount();
  }

  /** The L2 does not know replicas: every evicted block is counted as a primary one. */
  @Override
  public long getPrimaryEvictedCount() {
    return getEvictedCount();
  }

  /** Every insertion the L2 refused (too large, queue full, no space, disabled). */
  @Override
  public long getFailedInserts() {
    return l2.get().failedInsertionCount();
  }
}
