package dev.blockcache.bucket.index;

/**
 * How a {@link BlockIndex} is laid out for its expected size (file groups, hence segments) and what its heap comes to:
 * the count its {@link BlockIndex#heapBytes()} reports, and the projection of that count before the index exists
 * ({@link #projectedHeapBytes}, the sizing report's figure). The layout itself is described in
 * {@link BlockIndex}'s class notes ("Memory layout").
 *
 * <p>Thread-safety: stateless.
 */
public final class IndexHeap {
  /** Entries per file group at expectedEntries: bounds what removeFile scans (~1,000 entries). */
  static final int ENTRIES_PER_FILE_GROUP = 1024;
  /**
   * Fewest file groups: 2 (16 segments). A small index's groups hold fewer than {@value #ENTRIES_PER_FILE_GROUP}
   * entries anyway, so removeFile stays short, and the empty index's fixed heap follows the capacity (~4 KiB at this
   * floor).
   */
  static final int MIN_FILE_GROUPS = 2;
  /** Most file groups: 4,096 (32,768 segments, ~4.5 MB of fixed overhead) caps the empty-index cost. */
  static final int MAX_FILE_GROUPS = 4096;
  /** Estimated heap of an empty segment beyond its slots (Segment, StampedLock, counters, array header). */
  static final int SEGMENT_OVERHEAD_BYTES = 136;

  private IndexHeap() {
  }

  /** File groups of an index laid out for {@code expectedEntries} ("Memory layout" in {@link BlockIndex}). */
  static int fileGroupsFor(int expectedEntries) {
    int groups = Integer.highestOneBit(Math.max(1, expectedEntries / ENTRIES_PER_FILE_GROUP) * 2 - 1);
    return Math.min(MAX_FILE_GROUPS, Math.max(MIN_FILE_GROUPS, groups));
  }

  /** The heap {@link BlockIndex#heapBytes()} counts for {@code segments} segments holding {@code slots} slots. */
  static long heapBytes(int segments, double slots) {
    return 16L + (4L + SEGMENT_OVERHEAD_BYTES) * segments + Math.round(16 * slots);
  }

  /**
   * The {@link BlockIndex#heapBytes()} an index laid out for {@code expectedEntries} is expected to report once it
   * holds {@code entries} entries of keys spread over many files (no removals). Keys fall into segments at random,
   * so a segment's count is Poisson-distributed around {@code entries / segmentCount}; the projection is the expected
   * table capacity under the segments' own growth rule, plus the same fixed overheads
   * {@link BlockIndex#heapBytes()} counts.
   * Keys clumped in large files vary more between segments (a file's keys share its group's segments), so a real
   * index of such keys strays further from this projection; {@code ProjectedIndexHeapTest} pins the tolerance for
   * keys spread over many files.
   *
   * @throws IllegalArgumentException if an argument is negative or a segment would exceed 2^30 entries
   */
  public static long projectedHeapBytes(int expectedEntries, long entries) {
    if (expectedEntries < 0 || entries < 0) {
      throw new IllegalArgumentException("expected entries " + expectedEntries + " and entries " + entries
          + " must be >= 0");
    }
    int segments = fileGroupsFor(expectedEntries) << BlockIndex.SUB_BITS;
    double mean = (double) entries / segments;
    if (mean > (1 << 30)) {
      throw new IllegalArgumentException(entries + " entries exceed 2^30 per segment");
    }
    return heapBytes(segments, segments * SegmentGrowth.expectedCapacity(mean));
  }
}
