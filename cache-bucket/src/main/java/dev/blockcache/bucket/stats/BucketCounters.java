package dev.blockcache.bucket.stats;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CacheResult;
import java.util.concurrent.atomic.LongAdder;

/**
 * The L2's own counters beyond {@link dev.blockcache.stats.StatsRecorder}: cached blocks per category, failed
 * insertions per reason, slot reads whose header did not match the index, and IO errors.
 *
 * <p>Thread-safety: safe for concurrent use; every counter is a {@link LongAdder}.
 */
public final class BucketCounters {
  private final LongAdder[] blocks = adders(BlockCategory.COUNT);
  private final LongAdder[] failures = adders(CacheResult.values().length);
  private final LongAdder[] notAdmitted = adders(CacheResult.values().length);
  private final LongAdder headerMismatches = new LongAdder();
  private final LongAdder ioErrors = new LongAdder();
  private final LongAdder checksumMismatches = new LongAdder();

  private static LongAdder[] adders(int n) {
    LongAdder[] a = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  public void blockAdded(BlockCategory category) {
    blocks[category.ordinal()].increment();
  }

  public void blockRemoved(BlockCategory category) {
    blocks[category.ordinal()].decrement();
  }

  public long[] blockCounts() {
    long[] counts = new long[BlockCategory.COUNT];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = blocks[i].sum();
    }
    return counts;
  }

  public void failed(CacheResult reason) {
    failures[reason.ordinal()].increment();
  }

  long failures(CacheResult reason) {
    return failures[reason.ordinal()].sum();
  }

  /** A block the admission declined, for {@code reason} ({@link CacheResult#isNotAdmitted()}). */
  public void notAdmitted(CacheResult reason) {
    notAdmitted[reason.ordinal()].increment();
  }

  long notAdmittedCount(CacheResult reason) {
    return notAdmitted[reason.ordinal()].sum();
  }

  void headerMismatch() {
    headerMismatches.increment();
  }

  long headerMismatches() {
    return headerMismatches.sum();
  }

  void checksumMismatch() {
    checksumMismatches.increment();
  }

  /** Blocks read from a file engine whose CRC32C did not match (corrupt on the device): each was evicted. */
  long checksumMismatches() {
    return checksumMismatches.sum();
  }

  void ioError() {
    ioErrors.increment();
  }

  long ioErrors() {
    return ioErrors.sum();
  }
}
