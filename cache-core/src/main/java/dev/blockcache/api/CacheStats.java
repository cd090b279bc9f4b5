package dev.blockcache.api;

import java.util.Arrays;

/**
 * An immutable snapshot of one cache's counters, taken by {@link BlockCache#stats()}.
 *
 * <p>Counts are per {@link BlockCategory}; totals and ratios are derived from them. A "caching" hit or miss is one
 * whose request would have cached the block on a miss ({@link ReadOptions#caching()}): HBase reports their hit ratio
 * as {@code blockCacheExpressHitPercent}. Counters read at slightly different instants while other threads run, so
 * a snapshot is consistent per counter, not across counters.
 *
 * <p>Thread-safety: immutable.
 */
public final class CacheStats {
  private final long[] hits;
  private final long[] misses;
  private final long[] cachingHits;
  private final long[] cachingMisses;
  private final long[] evictedBlocks;
  private final long[] blockCounts;
  private final long evictionRuns;
  private final long failedInsertions;
  private final long capacity;
  private final long size;

  /**
   * A snapshot; the arrays are indexed by {@link BlockCategory#ordinal()}, have {@link BlockCategory#COUNT} entries
   * and are copied.
   */
  public CacheStats(long[] hits, long[] misses, long[] cachingHits, long[] cachingMisses, long[] evictedBlocks,
      long[] blockCounts, long evictionRuns, long failedInsertions, long capacity, long size) {
    this.hits = perCategory(hits, "hits");
    this.misses = perCategory(misses, "misses");
    this.cachingHits = perCategory(cachingHits, "cachingHits");
    this.cachingMisses = perCategory(cachingMisses, "cachingMisses");
    this.evictedBlocks = perCategory(evictedBlocks, "evictedBlocks");
    this.blockCounts = perCategory(blockCounts, "blockCounts");
    this.evictionRuns = evictionRuns;
    this.failedInsertions = failedInsertions;
    this.capacity = capacity;
    this.size = size;
  }

  /**
   * The counters of two caches added up: what a cache made of two tiers reports. Capacities and sizes add; ratios
   * are derived from the summed counts.
   */
  public CacheStats plus(CacheStats other) {
    return new CacheStats(add(hits, other.hits), add(misses, other.misses), add(cachingHits, other.cachingHits),
        add(cachingMisses, other.cachingMisses), add(evictedBlocks, other.evictedBlocks),
        add(blockCounts, other.blockCounts), evictionRuns + other.evictionRuns,
        failedInsertions + other.failedInsertions, capacity + other.capacity, size + other.size);
  }

  private static long[] add(long[] a, long[] b) {
    long[] sum = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      sum[i] = a[i] + b[i];
    }
    return sum;
  }

  private static long[] perCategory(long[] values, String name) {
    if (values.length != BlockCategory.COUNT) {
      throw new IllegalArgumentException(name + " needs " + BlockCategory.COUNT + " entries, had " + values.length);
    }
    return values.clone();
  }

  public long hitCount(BlockCategory category) {
    return hits[category.ordinal()];
  }

  public long missCount(BlockCategory category) {
    return misses[category.ordinal()];
  }

  public long hitCount() {
    return sum(hits);
  }

  public long missCount() {
    return sum(misses);
  }

  public long requestCount() {
    return hitCount() + missCount();
  }

  /** Hits of caching requests only. */
  public long cachingHitCount() {
    return sum(cachingHits);
  }

  /** Misses of caching requests only. */
  public long cachingMissCount() {
    return sum(cachingMisses);
  }

  /** Hits over requests, in [0, 1]; 0 when there were no requests. */
  public double hitRatio() {
    return ratio(hitCount(), requestCount());
  }

  /** Misses over requests, in [0, 1]; 0 when there were no requests. */
  public double missRatio() {
    return ratio(missCount(), requestCount());
  }

  /** Hits over requests among caching requests (HBase's express hit ratio), in [0, 1]. */
  public double cachingHitRatio() {
    long caching = cachingHitCount() + cachingMissCount();
    return ratio(cachingHitCount(), caching);
  }

  /** Times eviction ran. */
  public long evictionRunCount() {
    return evictionRuns;
  }

  /** Blocks evicted to make room (not explicit evictions by key or file). */
  public long evictedBlockCount() {
    return sum(evictedBlocks);
  }

  public long evictedBlockCount(BlockCategory category) {
    return evictedBlocks[category.ordinal()];
  }

  /** Calls to cacheBlock that did not cache their block ({@link CacheResult#isFailure()}). */
  public long failedInsertionCount() {
    return failedInsertions;
  }

  /** The configured capacity in bytes. */
  public long capacity() {
    return capacity;
  }

  /** Bytes in use, as the cache accounts them (block bytes plus per-entry overhead for on-heap caches). */
  public long size() {
    return size;
  }

  /** {@code capacity() - size()}, never negative. */
  public long freeSize() {
    return Math.max(0, capacity - size);
  }

  public long blockCount() {
    return sum(blockCounts);
  }

  public long blockCount(BlockCategory category) {
    return blockCounts[category.ordinal()];
  }

  private static long sum(long[] values) {
    long total = 0;
    for (long v : values) {
      total += v;
    }
    return total;
  }

  private static double ratio(long part, long whole) {
    return whole == 0 ? 0.0 : (double) part / whole;
  }

  @Override
  public String toString() {
    return "CacheStats{hits=" + Arrays.toString(hits) + ", misses=" + Arrays.toString(misses)
        + ", evictionRuns=" + evictionRuns + ", evicted=" + Arrays.toString(evictedBlocks)
        + ", failedInsertions=" + failedInsertions + ", size=" + size + "/" + capacity
        + ", blocks=" + Arrays.toString(blockCounts) + "}";
  }
}
