package dev.blockcache.bucket;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.alloc.SlotPins;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.EntrySink;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.config.BucketCacheConfig;
import dev.blockcache.stats.StatsRecorder;
import java.util.function.LongSupplier;
import org.slf4j.LoggerFactory;

/**
 * The components one {@link BucketCache} is made of, wired once, shared by its read path, writers and reclaimer.
 *
 * <p>Two sinks release index entries: {@link #evicted} for entries the reclaimer chose (counted as evictions) and
 * {@link #removed} for entries a caller asked to drop. Both free the slot through the pin table, so a slot returns to
 * the allocator only after its last reader released it.
 *
 * <p>Thread-safety: immutable wiring of thread-safe parts. The index calls the sinks after releasing its segment
 * lock (an eviction may still hold its CLOCK hand); they take the pin table's and the allocator's locks, which are
 * leaves of the lock order in this package's notes.
 */
final class BucketCacheParts {
  final BucketCacheConfig config;
  final IoEngine engine;
  final BucketAllocator allocator;
  final SlotPins pins;
  final BlockIndex index;
  final RamCache ramCache = new RamCache();
  final StatsRecorder stats = new StatsRecorder();
  final BucketCounters counters = new BucketCounters();
  final SpaceReclaimer reclaimer;
  final Admission admission;
  final EntrySink evicted = this::evicted;
  final EntrySink removed = this::removed;
  /** Milliseconds; injected so tests step through the IO-error window without sleeping. */
  final LongSupplier clockMs;
  final IoErrorTolerance ioErrors;
  /** Warnings from the read and write paths (corrupt slots, IO errors): at most one line per {@link #WARN_INTERVAL_MS}. */
  final RateLimitedLog ioWarnings;
  /** Milliseconds between two IO warnings: one line per 10 s is enough to notice and cannot flood a log. */
  static final long WARN_INTERVAL_MS = 10_000;

  BucketCacheParts(BucketCacheConfig config, IoEngine engine, int expectedEntries, LongSupplier clockMs) {
    this.config = config;
    this.engine = engine;
    this.allocator = new BucketAllocator(Math.min(config.capacity(), engine.capacity()), config.bucketSizes());
    this.pins = new SlotPins(allocator::free);
    this.index = new BlockIndex(expectedEntries, SpaceReclaimer.sketchFor(config, expectedEntries));
    this.reclaimer = new SpaceReclaimer(config, allocator, index, evicted, stats);
    this.admission = new Admission(config, allocator.maxItemSize(), reclaimer, counters, clockMs);
    this.clockMs = clockMs;
    this.ioErrors = new IoErrorTolerance(config.ioErrorsToleratedMs(), clockMs);
    this.ioWarnings = new RateLimitedLog(LoggerFactory.getLogger(BucketCache.class), WARN_INTERVAL_MS, clockMs);
  }

  void fail(CacheResult reason) {
    counters.failed(reason);
    stats.failedInsertion();
  }

  private void evicted(long entry) {
    BlockCategory category = IndexEntry.category(entry);
    stats.evicted(category);
    removed(entry);
  }

  private void removed(long entry) {
    counters.blockRemoved(IndexEntry.category(entry));
    pins.freeWhenUnpinned(IndexEntry.offset(entry), IndexEntry.length(entry));
  }
}
