package dev.blockcache.stats;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CacheStats;
import dev.blockcache.api.ReadOptions;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live counters behind {@link CacheStats}: hits and misses per category (all requests and caching requests),
 * eviction runs, evicted blocks per category, failed insertions.
 *
 * <p>Every counter is a {@link LongAdder}, so threads counting on different cores do not contend on one cache line.
 * Hits and misses are kept apart for caching and non-caching requests, so that a lookup increments exactly one
 * adder (it is the hottest path of a cache); the totals are sums taken at {@link #snapshot} time. Sizes and block
 * counts are not kept here: the cache passes them in when it takes a snapshot.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class StatsRecorder {
  private final LongAdder[] cachingHits = adders();
  private final LongAdder[] nonCachingHits = adders();
  private final LongAdder[] cachingMisses = adders();
  private final LongAdder[] nonCachingMisses = adders();
  private final LongAdder[] evictedBlocks = adders();
  private final LongAdder evictionRuns = new LongAdder();
  private final LongAdder failedInsertions = new LongAdder();

  private static LongAdder[] adders() {
    LongAdder[] adders = new LongAdder[BlockCategory.COUNT];
    for (int i = 0; i < adders.length; i++) {
      adders[i] = new LongAdder();
    }
    return adders;
  }

  /** Counts a hit as {@code options} say (nothing when they are {@link ReadOptions#withoutStats()}). */
  public void hit(ReadOptions options) {
    if (!options.updatesStats()) {
      return;
    }
    (options.caching() ? cachingHits : nonCachingHits)[options.category().ordinal()].increment();
  }

  /** Counts a miss as {@code options} say (nothing for repeated lookups or {@link ReadOptions#withoutStats()}). */
  public void miss(ReadOptions options) {
    if (!options.updatesStats() || options.isRepeat()) {
      return;
    }
    (options.caching() ? cachingMisses : nonCachingMisses)[options.category().ordinal()].increment();
  }

  /** Counts one pass of the evictor, whatever it freed. */
  public void evictionRun() {
    evictionRuns.increment();
  }

  /** Counts one block evicted to make room. */
  public void evicted(BlockCategory category) {
    evictedBlocks[category.ordinal()].increment();
  }

  /** Counts one cacheBlock call that did not cache its block. */
  public void failedInsertion() {
    failedInsertions.increment();
  }

  /**
   * A snapshot of the counters with the cache's own capacity, size and per-category block counts (indexed by
   * {@link BlockCategory#ordinal()}).
   */
  public CacheStats snapshot(long capacity, long size, long[] blockCounts) {
    long[] caching = sums(cachingHits);
    long[] cachingMissed = sums(cachingMisses);
    return new CacheStats(plus(caching, sums(nonCachingHits)), plus(cachingMissed, sums(nonCachingMisses)), caching,
        cachingMissed, sums(evictedBlocks),
        blockCounts, evictionRuns.sum(), failedInsertions.sum(), capacity, size);
  }

  private static long[] plus(long[] a, long[] b) {
    long[] sum = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      sum[i] = a[i] + b[i];
    }
    return sum;
  }

  private static long[] sums(LongAdder[] adders) {
    long[] sums = new long[adders.length];
    for (int i = 0; i < adders.length; i++) {
      sums[i] = adders[i].sum();
    }
    return sums;
  }
}
