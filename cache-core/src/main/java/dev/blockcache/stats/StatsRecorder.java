package dev.blockcache.stats;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CacheStats;
import dev.blockcache.api.ReadOptions;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * The live counters behind {@link CacheStats}: hits and misses per category (all requests and caching requests),
 * eviction runs, evicted blocks per category, failed insertions.
 *
 * <p>Hits and misses, counted on every lookup (the hottest path of a cache), are {@link ThreadCounters}: each thread
 * counts in a cell of its own without an atomic instruction. They are kept apart for caching and non-caching
 * requests, so that a lookup increments exactly one counter; the totals are sums taken at {@link #snapshot} time.
 * The rarer counts (evictions, failed insertions) are {@link LongAdder}s. Sizes and block counts are not kept here:
 * the cache passes them in when it takes a snapshot.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class StatsRecorder {
  /** Counter offsets in {@link #lookups}; each group has one counter per {@link BlockCategory}. */
  private static final int CACHING_HITS = 0;
  private static final int NON_CACHING_HITS = BlockCategory.COUNT;
  private static final int CACHING_MISSES = 2 * BlockCategory.COUNT;
  private static final int NON_CACHING_MISSES = 3 * BlockCategory.COUNT;

  private final ThreadCounters lookups = new ThreadCounters(4 * BlockCategory.COUNT);
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
    lookups.increment((options.caching() ? CACHING_HITS : NON_CACHING_HITS) + options.category().ordinal());
  }

  /** Counts a miss as {@code options} say (nothing for repeated lookups or {@link ReadOptions#withoutStats()}). */
  public void miss(ReadOptions options) {
    if (!options.updatesStats() || options.isRepeat()) {
      return;
    }
    lookups.increment((options.caching() ? CACHING_MISSES : NON_CACHING_MISSES) + options.category().ordinal());
  }

  /**
   * Counts a lookup that found {@code found}: a hit as {@link #hit} does, or, when {@code found} is null, a miss as
   * {@link #miss} does. One call site instead of two on a get whose code the JIT must keep small enough to inline.
   */
  public void lookup(ReadOptions options, Object found) {
    if (!options.updatesStats() || (found == null && options.isRepeat())) {
      return;
    }
    int first = found != null ? (options.caching() ? CACHING_HITS : NON_CACHING_HITS)
        : (options.caching() ? CACHING_MISSES : NON_CACHING_MISSES);
    lookups.increment(first + options.category().ordinal());
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
    long[] counts = lookups.sums();
    long[] caching = group(counts, CACHING_HITS);
    long[] cachingMissed = group(counts, CACHING_MISSES);
    return new CacheStats(plus(caching, group(counts, NON_CACHING_HITS)),
        plus(cachingMissed, group(counts, NON_CACHING_MISSES)), caching, cachingMissed, sums(evictedBlocks),
        blockCounts, evictionRuns.sum(), failedInsertions.sum(), capacity, size);
  }

  private static long[] plus(long[] a, long[] b) {
    long[] sum = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      sum[i] = a[i] + b[i];
    }
    return sum;
  }

  /** The per-category counters of the group starting at {@code offset}. */
  private static long[] group(long[] counts, int offset) {
    return Arrays.copyOfRange(counts, offset, offset + BlockCategory.COUNT);
  }

  private static long[] sums(LongAdder[] adders) {
    long[] sums = new long[adders.length];
    for (int i = 0; i < adders.length; i++) {
      sums[i] = adders[i].sum();
    }
    return sums;
  }
}
