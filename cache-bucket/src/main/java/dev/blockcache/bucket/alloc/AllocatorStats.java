package dev.blockcache.bucket.alloc;

import java.util.Arrays;
import java.util.List;

/**
 * An immutable snapshot of a {@link BucketAllocator}'s counters, taken under its lock, so all counters describe the
 * same instant.
 *
 * <p>Byte arithmetic: {@code usedItemBytes = blockBytes + wastedBytes} (an item is at least as large as the block in
 * it) and {@code capacity = usedItemBytes + freeBytes}, where {@code freeBytes} includes free items of assigned
 * buckets, whole unassigned buckets and the slack at the end of buckets whose item size does not divide the bucket.
 *
 * <p>Thread-safety: immutable.
 */
public final class AllocatorStats {
  private final long capacity;
  private final long usedItemBytes;
  private final long blockBytes;
  private final List<SizeClass> sizeClasses;

  /** A snapshot; {@code sizeClasses} is copied. */
  public AllocatorStats(long capacity, long usedItemBytes, long blockBytes, SizeClass[] sizeClasses) {
    this.capacity = capacity;
    this.usedItemBytes = usedItemBytes;
    this.blockBytes = blockBytes;
    this.sizeClasses = List.copyOf(Arrays.asList(sizeClasses));
  }

  /** Usable bytes of the allocator (whole buckets). */
  public long capacity() {
    return capacity;
  }

  /** Bytes of all allocated items, at their item size. */
  public long usedItemBytes() {
    return usedItemBytes;
  }

  /** Sum of the lengths the allocated items were asked for. */
  public long blockBytes() {
    return blockBytes;
  }

  /** Bytes lost inside allocated items: {@code usedItemBytes - blockBytes}. */
  public long wastedBytes() {
    return usedItemBytes - blockBytes;
  }

  /** Bytes not in an allocated item: {@code capacity - usedItemBytes}. */
  public long freeBytes() {
    return capacity - usedItemBytes;
  }

  /** Share of the capacity that holds block bytes: {@code blockBytes / capacity}. */
  public double utilisation() {
    return capacity == 0 ? 0 : (double) blockBytes / capacity;
  }

  /** Allocated items over all classes. */
  public long usedItems() {
    long n = 0;
    for (SizeClass c : sizeClasses) {
      n += c.usedItems();
    }
    return n;
  }

  /** One entry per size class, in ascending item size. */
  public List<SizeClass> sizeClasses() {
    return sizeClasses;
  }

  public SizeClass sizeClass(int index) {
    return sizeClasses.get(index);
  }

  @Override
  public String toString() {
    return "AllocatorStats{capacity=" + capacity + ", usedItemBytes=" + usedItemBytes + ", blockBytes=" + blockBytes
        + ", utilisation=" + String.format("%.4f", utilisation()) + ", classes=" + sizeClasses + '}';
  }

  /**
   * Counters of one size class.
   *
   * <p>Thread-safety: immutable.
   */
  public static final class SizeClass {
    private final int itemSize;
    private final int buckets;
    private final long usedItems;
    private final long freeItems;

    public SizeClass(int itemSize, int buckets, long usedItems, long freeItems) {
      this.itemSize = itemSize;
      this.buckets = buckets;
      this.usedItems = usedItems;
      this.freeItems = freeItems;
    }

    public int itemSize() {
      return itemSize;
    }

    /** Buckets currently assigned to this class. */
    public int buckets() {
      return buckets;
    }

    public long usedItems() {
      return usedItems;
    }

    /** Free items in this class's buckets: {@code buckets * itemsPerBucket - usedItems}. */
    public long freeItems() {
      return freeItems;
    }

    @Override
    public String toString() {
      return itemSize + ":" + buckets + "b/" + usedItems + "u/" + freeItems + "f";
    }
  }
}
