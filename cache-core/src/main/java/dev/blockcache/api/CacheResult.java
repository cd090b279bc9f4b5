package dev.blockcache.api;

/**
 * What {@link BlockCache#cacheBlock} did with a block. Every outcome but {@link #CACHED}, {@link #ALREADY_CACHED}
 * and the two admission decisions ({@link #NOT_ADMITTED}, {@link #OVER_WRITE_BUDGET}) is counted as a failed
 * insertion ({@code blockCacheFailedInsertionCount}): a block the policy declines is a decision, not a failure.
 *
 * <p>Thread-safety: immutable.
 */
public enum CacheResult {
  /** The block is cached (or, in an L2, queued for its writer and readable while it waits). */
  CACHED,
  /** A block with this key is already cached; it was kept and the new bytes dropped. */
  ALREADY_CACHED,
  /**
   * The block is larger than the largest block this cache takes, or (in an L2) its key's file name is longer than
   * a slot header stores (65,535 bytes of UTF-8).
   */
  TOO_LARGE,
  /** The cache is over its hard capacity limit and eviction has not caught up. */
  OVER_CAPACITY,
  /** The L2 writer queue is full (after waiting, if a wait is configured). */
  QUEUE_FULL,
  /** No free slot could be allocated for the block, even after evicting. */
  NO_SPACE,
  /** The cache is disabled (after sustained IO errors) or closed. */
  DISABLED,
  /**
   * The admission policy declined the block: the cache is full and the block is estimated to be used less often
   * than the block it would displace (an L2 under {@code hbase.bucketcache.eviction.policy=tinylfu}).
   */
  NOT_ADMITTED,
  /** Writing the block would exceed the L2's write budget ({@code hbase.bucketcache.admission.max.write.rate}). */
  OVER_WRITE_BUDGET;

  /** Whether a block with the key is cached after the call. */
  public boolean isCached() {
    return this == CACHED || this == ALREADY_CACHED;
  }

  /** Whether the call counts as a failed insertion: not cached, and not declined by an admission policy. */
  public boolean isFailure() {
    return !isCached() && !isNotAdmitted();
  }

  /** Whether an admission policy declined the block ({@link #NOT_ADMITTED}, {@link #OVER_WRITE_BUDGET}). */
  public boolean isNotAdmitted() {
    return this == NOT_ADMITTED || this == OVER_WRITE_BUDGET;
  }
}
