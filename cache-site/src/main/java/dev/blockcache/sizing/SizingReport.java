package dev.blockcache.sizing;

import java.util.List;
import java.util.Optional;

/**
 * What {@link CacheSizer} found for one hbase-site.xml on one {@link Machine}: the fit of the machine's block size in
 * each tier, the heap the cache takes, the page cache left, the dataset sizes of the YCSB sizing method, and the
 * problems (each naming the key or argument and the values at fault). {@link SizingText} prints it.
 *
 * <p>Thread-safety: immutable.
 */
public final class SizingReport {
  private final Machine machine;
  private final L1Fit l1;
  private final L2Fit l2;
  private final double memstoreShare;
  private final long cacheHeapBytes;
  private final long heapLimitBytes;
  private final long pageCacheBytes;
  private final long cachedDatasetBytes;
  private final List<String> problems;
  private final List<String> notes;
  private final List<String> reportedKeys;

  SizingReport(Machine machine, L1Fit l1, L2Fit l2, double memstoreShare, long cacheHeapBytes, long heapLimitBytes,
      long pageCacheBytes, long cachedDatasetBytes, List<String> problems, List<String> notes,
      List<String> reportedKeys) {
    this.machine = machine;
    this.l1 = l1;
    this.l2 = l2;
    this.memstoreShare = memstoreShare;
    this.cacheHeapBytes = cacheHeapBytes;
    this.heapLimitBytes = heapLimitBytes;
    this.pageCacheBytes = pageCacheBytes;
    this.cachedDatasetBytes = cachedDatasetBytes;
    this.problems = List.copyOf(problems);
    this.notes = List.copyOf(notes);
    this.reportedKeys = List.copyOf(reportedKeys);
  }

  public Machine machine() {
    return machine;
  }

  /** The L1's fit; empty when the block cache is disabled. */
  public Optional<L1Fit> l1() {
    return Optional.ofNullable(l1);
  }

  /** The L2's fit; empty without {@code hbase.bucketcache.ioengine}. */
  public Optional<L2Fit> l2() {
    return Optional.ofNullable(l2);
  }

  /** {@code hbase.regionserver.global.memstore.size}: the heap share HBase gives its memstores. */
  public double memstoreShare() {
    return memstoreShare;
  }

  /** Heap the cache takes at most: L1 capacity, L2 index, L2 writer queues, and the L2 itself on the heap engine. */
  public long cacheHeapBytes() {
    return cacheHeapBytes;
  }

  /** Heap the cache may take: 80% of the heap minus the memstores' share (HBase's start-up rule). */
  public long heapLimitBytes() {
    return heapLimitBytes;
  }

  /** RAM left to the OS page cache: RAM minus heap, L2 memory outside the heap and reserved RAM; never negative. */
  public long pageCacheBytes() {
    return pageCacheBytes;
  }

  public double pageCacheShareOfRam() {
    return (double) pageCacheBytes / machine.ramBytes();
  }

  /**
   * The largest dataset (bytes of data blocks) the block cache holds entirely: the L2's blocks when there is an L2
   * (data blocks go there), else the L1's.
   */
  public long largestCachedDatasetBytes() {
    return cachedDatasetBytes;
  }

  /** Datasets larger than this exceed the block cache plus the page cache: most reads go to the disk. */
  public long smallestUncachedDatasetBytes() {
    return cachedDatasetBytes + pageCacheBytes;
  }

  /** Each problem names the keys or arguments and the values at fault; empty when the configuration fits. */
  public List<String> problems() {
    return problems;
  }

  /** Assumptions and remarks that are not problems. */
  public List<String> notes() {
    return notes;
  }

  /** Keys of the site the config reader reported rather than applied. */
  public List<String> reportedKeys() {
    return reportedKeys;
  }
}
