package dev.blockcache.bucket.stats;

import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.alloc.AllocatorStats;
import dev.blockcache.bucket.engine.EngineStats;

/**
 * A snapshot of the L2's own figures, beyond the {@link dev.blockcache.api.CacheStats} every cache reports: allocator
 * utilisation, the index's heap per entry, writer-queue depth, failed insertions by reason, header mismatches, IO
 * errors, pinned slots and the engine's IO counters.
 *
 * <p>Thread-safety: immutable.
 */
public final class BucketCacheMetrics {
  private final AllocatorStats allocator;
  private final long entries;
  private final long indexHeapBytes;
  private final int queued;
  private final int queueCapacity;
  private final long queueFull;
  private final long noSpace;
  private final long tooLarge;
  private final long headerMismatches;
  private final long ioErrors;
  private final int pinnedSlots;
  private final EngineStats engine;
  private final long checksumMismatches;
  private final boolean disabled;
  private final long droppedWhileDisabled;
  private final long notAdmitted;
  private final long overWriteBudget;

  public BucketCacheMetrics(AllocatorStats allocator, long entries, long indexHeapBytes, int queued, int queueCapacity,
      BucketCounters counters, int pinnedSlots, EngineStats engine, IoErrorTolerance ioErrorTolerance) {
    this.allocator = allocator;
    this.entries = entries;
    this.indexHeapBytes = indexHeapBytes;
    this.queued = queued;
    this.queueCapacity = queueCapacity;
    this.queueFull = counters.failures(CacheResult.QUEUE_FULL);
    this.noSpace = counters.failures(CacheResult.NO_SPACE);
    this.tooLarge = counters.failures(CacheResult.TOO_LARGE);
    this.headerMismatches = counters.headerMismatches();
    this.ioErrors = counters.ioErrors();
    this.pinnedSlots = pinnedSlots;
    this.engine = engine;
    this.checksumMismatches = counters.checksumMismatches();
    this.disabled = ioErrorTolerance.disabled();
    this.droppedWhileDisabled = ioErrorTolerance.droppedPuts();
    this.notAdmitted = counters.notAdmittedCount(CacheResult.NOT_ADMITTED);
    this.overWriteBudget = counters.notAdmittedCount(CacheResult.OVER_WRITE_BUDGET);
  }

  /**
   * Blocks the admission policy declined ({@link CacheResult#NOT_ADMITTED}): the cache was full and each was
   * estimated to be used less often than the block it would have displaced. Not failed insertions.
   */
  public long notAdmittedCount() {
    return notAdmitted;
  }

  /**
   * Blocks declined because writing them would have exceeded the write budget
   * ({@link CacheResult#OVER_WRITE_BUDGET}).
   */
  public long overWriteBudgetCount() {
    return overWriteBudget;
  }

  /** Blocks whose CRC32C did not match on read from a file engine; each was evicted and served as a miss. */
  public long checksumMismatchCount() {
    return checksumMismatches;
  }

  /** Whether sustained IO errors have taken the L2 out of service (gets miss, puts are dropped). */
  public boolean disabledByIoErrors() {
    return disabled;
  }

  /** cacheBlock calls dropped because the L2 was disabled by IO errors. */
  public long droppedWhileDisabledCount() {
    return droppedWhileDisabled;
  }

  /** Block bytes over usable capacity, in [0, 1]. */
  public double utilisation() {
    return allocator.utilisation();
  }

  /** Bytes of allocated slots not holding block or header bytes (the rest of each slot's size class). */
  public long wastedBytes() {
    return allocator.wastedBytes();
  }

  public AllocatorStats allocator() {
    return allocator;
  }

  /** Heap the index's tables take, divided by the entries in it; 0 when empty. */
  public double indexHeapBytesPerEntry() {
    return entries == 0 ? 0 : (double) indexHeapBytes / entries;
  }

  public long indexHeapBytes() {
    return indexHeapBytes;
  }

  /** Blocks waiting for a writer now. */
  public int writerQueueDepth() {
    return queued;
  }

  public int writerQueueCapacity() {
    return queueCapacity;
  }

  /** cacheBlock calls refused because the writer queue stayed full. */
  public long queueFullCount() {
    return queueFull;
  }

  /** Blocks dropped by a writer because no slot could be freed (or written). */
  public long noSpaceCount() {
    return noSpace;
  }

  public long tooLargeCount() {
    return tooLarge;
  }

  /** Slot reads whose header did not match the key the index gave (a fingerprint collision or a corrupt slot). */
  public long headerMismatchCount() {
    return headerMismatches;
  }

  public long ioErrorCount() {
    return ioErrors;
  }

  /** Slots held by outstanding reader views now. */
  public int pinnedSlots() {
    return pinnedSlots;
  }

  public EngineStats engine() {
    return engine;
  }
}
