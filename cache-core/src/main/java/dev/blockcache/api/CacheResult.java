package dev.blockcache.api;

/**
 * What {@link BlockCache#cacheBlock} did with a block. Every outcome but {@link #CACHED} and
 * {@link #ALREADY_CACHED} is counted as a failed insertion ({@code blockCacheFailedInsertionCount}).
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
  DISABLED;

  /** Whether a block with the key is cached after the call. */
  public boolean isCached() {
    return this == CACHED || this == ALREADY_CACHED;
  }

  /** Whether the call counts as a failed insertion. */
  public boolean isFailure() {
    return !isCached();
  }
}
