package dev.blockcache.bucket.alloc;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Hands out fixed-size items of the L2's address space, with HBase {@code hbase.bucketcache.bucket.sizes} semantics.
 *
 * <h2>Design notes</h2>
 * The space {@code [0, capacity())} is cut into buckets of {@link #bucketCapacity()} bytes (four to five times the
 * largest item size, chosen to leave little of the capacity unused: {@link ItemSizes#bucketCapacity}; capacity is
 * rounded down to whole buckets). A bucket is either <em>unassigned</em> or belongs to one
 * size class and is then cut into {@code bucketCapacity / itemSize} items; the tail that does not fill a whole item
 * is never used. Buckets start unassigned; a class takes one when it has no free item, and a bucket whose last item
 * is freed becomes unassigned again at once, so space moves to the classes the workload needs (without this
 * migration, a list of many classes would strand most of the space in classes that are no longer asked for).
 * <pre>
 *   offset = bucket * bucketCapacity + item * itemSize
 *   |&lt;------------- bucket 0 (class 3) ------------&gt;|&lt;--- bucket 1 (unassigned) ---&gt;|&lt;- bucket 2 (class 0) ...
 *   | item 0 | item 1 | item 2 | item 3 | slack  |                                 | i0 | i1 | i2 | ...
 * </pre>
 *
 * <h2>Data structures (struct of arrays, no object per bucket or item)</h2>
 * <ul>
 *   <li>{@code freeBits}: {@code wordsPerBucket} longs per bucket, bit {@code i} set when item {@code i} is free.
 *       Finding a free item scans at most {@code wordsPerBucket = ceil(bucketCapacity / smallestItem / 64)} words,
 *       a constant of the configuration (7 for the HBase default list).
 *   <li>Per class, an intrusive doubly linked list ({@code next}/{@code prev}) of its buckets that have a free item;
 *       unassigned buckets form one more list. Allocation takes the head, so it never scans buckets: O(1).
 *   <li>Counters per class (buckets, used items) and in total (block bytes) give {@link #stats()} without a scan.
 * </ul>
 *
 * <h2>Invariants (all under the lock)</h2>
 * <ol>
 *   <li>{@code bucketClass[b] == UNASSIGNED} iff {@code used[b] == 0} and {@code b} is on the unassigned list.
 *   <li>An assigned bucket is on its class list iff {@code used[b] < itemsPerBucket(class)}.
 *   <li>The number of clear bits among an assigned bucket's first {@code itemsPerBucket} bits equals {@code used[b]};
 *       bits past {@code itemsPerBucket} are always clear.
 * </ol>
 *
 * <p>Thread-safety: thread-safe, with <b>one lock</b> for the whole allocator. Every operation is O(1) and short
 * (tens of nanoseconds); the callers are the L2 writer threads and eviction, never the get path, and one lock keeps
 * migration between classes simple. Per-class locks would need a second lock for the unassigned pool and a lock order
 * for the moment a bucket changes class, for no measured gain. The one exception is {@link #hasRoomFor}, asked before
 * every insert (admission, and the admission window's choice after a write): it reads two list heads without the
 * lock. The heads are written only under the lock, with opaque stores, and read there plainly or, by
 * {@link #hasRoomFor}, with opaque loads, so it sees each head as some recent value of it: the snapshot its contract
 * promises, at no lock per insert.
 */
public final class BucketAllocator {
  /** Item sizes are multiples of this many bytes, as in HBase. */
  public static final int ITEM_ALIGNMENT = 256;
  /** Fewest of the largest items one bucket holds (HBase's {@code bucketCapacity = 4 * largest}). */
  public static final int MIN_ITEMS_OF_LARGEST_PER_BUCKET = 4;

  /** Most longs in the free-item bitmap: the Java array size limit, so bucket * wordsPerBucket never overflows. */
  private static final long MAX_BITMAP_WORDS = Integer.MAX_VALUE - 8;

  private static final int UNASSIGNED = -1;
  private static final int NONE = -1;
  /** Opaque access to {@code head}'s elements, for {@link #hasRoomFor}'s read without the lock. */
  private static final VarHandle HEADS = MethodHandles.arrayElementVarHandle(int[].class);

  private final int[] itemSizes;
  private final SizeClassLookup sizeClasses;
  private final int[] itemsPerBucket;
  private final int bucketCapacity;
  private final int bucketCount;
  private final int wordsPerBucket;

  private final Object lock = new Object();
  /** Size class of each bucket, or UNASSIGNED. Guarded by lock. */
  @GuardedBy("lock")
  private final int[] bucketClass;
  /** Items in use per bucket. Guarded by lock. */
  @GuardedBy("lock")
  private final int[] used;
  /** Free-item bitmaps, wordsPerBucket per bucket. Guarded by lock. */
  @GuardedBy("lock")
  private final long[] freeBits;
  /** Links of the per-class free lists and of the unassigned list. Guarded by lock. */
  @GuardedBy("lock")
  private final int[] next;
  @GuardedBy("lock")
  private final int[] prev;
  /** Head of the list of buckets with a free item, per class; index classCount is the unassigned list. Guarded. */
  @GuardedBy("lock")
  private final int[] head;
  /** Buckets per class. Guarded by lock. */
  @GuardedBy("lock")
  private final int[] classBuckets;
  /** Used items per class. Guarded by lock. */
  @GuardedBy("lock")
  private final long[] classUsed;
  /** Sum of the lengths passed to allocate for items not yet freed. Guarded by lock. */
  @GuardedBy("lock")
  private long blockBytes;
  /** Sum of the item sizes of items not yet freed. Guarded by lock. */
  @GuardedBy("lock")
  private long usedItemBytes;

  /**
   * An allocator of {@code capacity} bytes (rounded down to whole buckets) cut in the given item sizes, in buckets
   * of {@link ItemSizes#bucketCapacity(int[], long)} bytes.
   *
   * @param itemSizes ascending, distinct, positive multiples of {@value #ITEM_ALIGNMENT}; copied
   * @throws IllegalArgumentException if the sizes are not valid or capacity is below one bucket
   */
  public BucketAllocator(long capacity, int[] itemSizes) {
    this(capacity, itemSizes, ItemSizes.bucketCapacity(itemSizes, capacity));
  }

  /**
   * An allocator of {@code capacity} bytes (rounded down to whole buckets) cut in the given item sizes, in buckets of
   * {@code bucketCapacity} bytes: what a cache whose engine was laid out for that bucket passes.
   *
   * @param itemSizes ascending, distinct, positive multiples of {@value #ITEM_ALIGNMENT}; copied
   * @param bucketCapacity at least {@link ItemSizes#smallestBucket}, a multiple of {@value #ITEM_ALIGNMENT}
   * @throws IllegalArgumentException if an argument is not valid or capacity is below one bucket
   */
  public BucketAllocator(long capacity, int[] itemSizes, int bucketCapacity) {
    this.itemSizes = ItemSizes.checked(itemSizes);
    this.sizeClasses = new SizeClassLookup(this.itemSizes);
    if (bucketCapacity < ItemSizes.smallestBucket(this.itemSizes) || bucketCapacity % ITEM_ALIGNMENT != 0) {
      throw new IllegalArgumentException("bucket capacity " + bucketCapacity + ": need a multiple of "
          + ITEM_ALIGNMENT + " of at least " + ItemSizes.smallestBucket(this.itemSizes) + " bytes");
    }
    this.bucketCapacity = bucketCapacity;
    long buckets = capacity / bucketCapacity;
    if (capacity < bucketCapacity) {
      throw new IllegalArgumentException(
          "capacity " + capacity + " is below one bucket of " + bucketCapacity + " bytes");
    }
    int classes = this.itemSizes.length;
    this.itemsPerBucket = new int[classes];
    for (int c = 0; c < classes; c++) {
      itemsPerBucket[c] = bucketCapacity / this.itemSizes[c];
    }
    this.wordsPerBucket = (itemsPerBucket[0] + 63) >>> 6;
    if (buckets * wordsPerBucket > MAX_BITMAP_WORDS) {
      throw new IllegalArgumentException("capacity " + capacity + " needs " + buckets + " buckets of "
          + bucketCapacity + " bytes; at most " + MAX_BITMAP_WORDS / wordsPerBucket + " are supported");
    }
    this.bucketCount = (int) buckets;
    this.bucketClass = new int[bucketCount];
    this.used = new int[bucketCount];
    this.freeBits = new long[Math.multiplyExact(bucketCount, wordsPerBucket)];
    this.next = new int[bucketCount];
    this.prev = new int[bucketCount];
    this.head = new int[classes + 1];
    this.classBuckets = new int[classes];
    this.classUsed = new long[classes];
    Arrays.fill(head, NONE);
    Arrays.fill(bucketClass, UNASSIGNED);
    // Unassigned list in ascending order, so the first buckets handed out are the lowest offsets.
    for (int b = bucketCount - 1; b >= 0; b--) {
      pushLocked(classes, b);
    }
  }

  /** Bytes per bucket: see {@link ItemSizes#bucketCapacity}. */
  public int bucketCapacity() {
    return bucketCapacity;
  }

  /** Usable bytes: whole buckets only. */
  public long capacity() {
    return (long) bucketCount * bucketCapacity;
  }

  public int bucketCount() {
    return bucketCount;
  }

  public int sizeClassCount() {
    return itemSizes.length;
  }

  /** The smallest class whose item size is at least {@code length}, or -1 if {@code length} is too large. */
  public int sizeClassOf(int length) {
    if (length <= 0 || length > maxItemSize()) {
      return -1;
    }
    return sizeClasses.classOf(length);
  }

  public int itemSize(int sizeClass) {
    return itemSizes[sizeClass];
  }

  /** Items one bucket of this class holds. */
  public int itemsPerBucket(int sizeClass) {
    return itemsPerBucket[sizeClass];
  }

  public int maxItemSize() {
    return itemSizes[itemSizes.length - 1];
  }

  /**
   * Reserves an item for a block of {@code length} bytes, in the smallest class that fits.
   *
   * @return the item's offset, or -1 when that class has no free item and no bucket is unassigned (the caller evicts
   *     and retries)
   * @throws IllegalArgumentException if {@code length <= 0} or {@code length > maxItemSize()}
   */
  public long allocate(int length) {
    int c = sizeClassOf(length);
    if (length <= 0 || c < 0) {
      throw new IllegalArgumentException("length " + length + " is not in [1, " + maxItemSize() + "]");
    }
    synchronized (lock) {
      int b = head[c];
      if (b == NONE) {
        b = head[itemSizes.length];
        if (b == NONE) {
          return -1;
        }
        assignLocked(b, c);
      }
      int item = takeFreeItemLocked(b);
      takenLocked(b, c, length);
      return (long) b * bucketCapacity + (long) item * itemSizes[c];
    }
  }

  /**
   * Whether {@link #allocate} of {@code length} bytes would succeed now: its class has a free item or a bucket is
   * unassigned. A snapshot, read without the lock: concurrent allocations and frees may change the answer before
   * (or while) the caller acts on it.
   *
   * @throws IllegalArgumentException if {@code length <= 0} or {@code length > maxItemSize()}
   */
  public boolean hasRoomFor(int length) {
    int c = sizeClassOf(length);
    if (length <= 0 || c < 0) {
      throw new IllegalArgumentException("length " + length + " is not in [1, " + maxItemSize() + "]");
    }
    return headOf(c) != NONE || headOf(itemSizes.length) != NONE;
  }

  /** The head of list {@code list}, read without the lock (see the class notes). */
  @SuppressWarnings("GuardedBy") // an opaque read of a head the lock's holders write opaquely: a snapshot by design
  private int headOf(int list) {
    return (int) HEADS.getOpaque(head, list);
  }

  /** Counts an item of bucket {@code b} (class {@code c}) whose free bit was just cleared. */
  @GuardedBy("lock")
  private void takenLocked(int b, int c, int length) {
    used[b]++;
    if (used[b] == itemsPerBucket[c]) {
      unlinkLocked(c, b);
    }
    classUsed[c]++;
    usedItemBytes += itemSizes[c];
    blockBytes += length;
  }

  /**
   * Marks the item at {@code offset} allocated for a block of {@code length} bytes, as {@link #allocate} would have:
   * for rebuilding the allocator from a persisted index on a warm restart. An unassigned bucket is assigned to the
   * class of {@code length}.
   *
   * @throws IllegalArgumentException if {@code length} is not in {@code [1, maxItemSize()]}
   * @throws IllegalStateException if {@code offset} is out of range, its bucket belongs to another class, it is not
   *     the start of an item, or the item is already allocated
   */
  public void reserve(long offset, int length) {
    int c = sizeClassOf(length);
    if (length <= 0 || c < 0) {
      throw new IllegalArgumentException("length " + length + " is not in [1, " + maxItemSize() + "]");
    }
    synchronized (lock) {
      int b = bucketOfLocked(offset);
      long inBucket = offset - (long) b * bucketCapacity;
      int size = itemSizes[c];
      if (inBucket % size != 0 || inBucket / size >= itemsPerBucket[c]) {
        throw new IllegalStateException(
            "reserve of offset " + offset + ": not the start of an item of " + size + " bytes in bucket " + b);
      }
      if (bucketClass[b] == UNASSIGNED) {
        assignLocked(b, c);
      } else if (bucketClass[b] != c) {
        throw new IllegalStateException("reserve of offset " + offset + " for " + length + " bytes: bucket " + b
            + " holds items of " + itemSizes[bucketClass[b]] + " bytes");
      }
      int item = (int) (inBucket / size);
      int word = b * wordsPerBucket + (item >>> 6);
      long bit = 1L << item;
      if ((freeBits[word] & bit) == 0) {
        throw new IllegalStateException("reserve of offset " + offset + ": already allocated");
      }
      freeBits[word] &= ~bit;
      takenLocked(b, c, length);
    }
  }

  /**
   * Returns the item at {@code offset}, allocated for {@code length} bytes, to its bucket; a bucket left empty becomes
   * unassigned and can serve any class.
   *
   * @throws IllegalStateException on a double free or an offset that is not the start of an allocated item
   * @throws IllegalArgumentException if {@code length} does not belong to the item's size class
   */
  public void free(long offset, int length) {
    synchronized (lock) {
      int b = bucketOfLocked(offset);
      int c = bucketClass[b];
      if (c == UNASSIGNED) {
        throw new IllegalStateException("free of offset " + offset + ": its bucket " + b + " holds no item");
      }
      long inBucket = offset - (long) b * bucketCapacity;
      int size = itemSizes[c];
      if (inBucket % size != 0 || inBucket / size >= itemsPerBucket[c]) {
        throw new IllegalStateException(
            "free of offset " + offset + ": not the start of an item of " + size + " bytes in bucket " + b);
      }
      if (sizeClassOf(length) != c || length <= 0) {
        throw new IllegalArgumentException("free of offset " + offset + ": length " + length
            + " does not belong to its item size " + size);
      }
      int item = (int) (inBucket / size);
      int word = b * wordsPerBucket + (item >>> 6);
      long bit = 1L << item;
      if ((freeBits[word] & bit) != 0) {
        throw new IllegalStateException("double free of offset " + offset + " (item of " + size + " bytes)");
      }
      freeBits[word] |= bit;
      if (used[b] == itemsPerBucket[c]) {
        pushLocked(c, b);
      }
      used[b]--;
      classUsed[c]--;
      usedItemBytes -= size;
      blockBytes -= length;
      if (used[b] == 0) {
        unassignLocked(b, c);
      }
    }
  }

  /** Item size of the bucket holding {@code offset}, or 0 if that bucket is unassigned. */
  public int itemSizeAt(long offset) {
    int c = sizeClassAt(offset);
    return c < 0 ? 0 : itemSizes[c];
  }

  /** Size class of the bucket holding {@code offset}, or -1 if that bucket is unassigned. */
  public int sizeClassAt(long offset) {
    synchronized (lock) {
      return bucketClass[bucketOfLocked(offset)];
    }
  }

  /** Whether {@code offset} is the start of an allocated item. */
  public boolean isAllocated(long offset) {
    synchronized (lock) {
      if (offset < 0 || offset >= capacity()) {
        return false;
      }
      int b = (int) (offset / bucketCapacity);
      int c = bucketClass[b];
      if (c == UNASSIGNED) {
        return false;
      }
      long inBucket = offset - (long) b * bucketCapacity;
      if (inBucket % itemSizes[c] != 0 || inBucket / itemSizes[c] >= itemsPerBucket[c]) {
        return false;
      }
      int item = (int) (inBucket / itemSizes[c]);
      return (freeBits[b * wordsPerBucket + (item >>> 6)] & (1L << item)) == 0;
    }
  }

  /**
   * The start offset of the assigned bucket, of a class other than {@code sizeClass}, that holds the fewest bytes of
   * items: the cheapest to empty so that it can move to {@code sizeClass}. Returns -1 if there is none. Scans every
   * bucket (O(buckets)): for the rare case where a class has no item and no bucket is unassigned, never routine.
   */
  public long cheapestBucketToEmpty(int sizeClass) {
    synchronized (lock) {
      int best = NONE;
      long bestBytes = Long.MAX_VALUE;
      for (int b = 0; b < bucketCount; b++) {
        int c = bucketClass[b];
        if (c != UNASSIGNED && c != sizeClass) {
          long bytes = (long) used[b] * itemSizes[c];
          if (bytes < bestBytes) {
            best = b;
            bestBytes = bytes;
          }
        }
      }
      return best == NONE ? -1 : (long) best * bucketCapacity;
    }
  }

  /** An immutable snapshot of the counters, consistent across counters (taken under the lock). */
  public AllocatorStats stats() {
    int classes = itemSizes.length;
    int[] buckets = new int[classes];
    long[] usedItems = new long[classes];
    long block;
    long usedBytes;
    synchronized (lock) {
      System.arraycopy(classBuckets, 0, buckets, 0, classes);
      System.arraycopy(classUsed, 0, usedItems, 0, classes);
      block = blockBytes;
      usedBytes = usedItemBytes;
    }
    AllocatorStats.SizeClass[] perClass = new AllocatorStats.SizeClass[classes];
    for (int c = 0; c < classes; c++) {
      perClass[c] = new AllocatorStats.SizeClass(itemSizes[c], buckets[c], usedItems[c],
          (long) buckets[c] * itemsPerBucket[c] - usedItems[c]);
    }
    return new AllocatorStats(capacity(), usedBytes, block, perClass);
  }

  @GuardedBy("lock")
  private int bucketOfLocked(long offset) {
    if (offset < 0 || offset >= capacity()) {
      throw new IllegalStateException("offset " + offset + " is outside [0, " + capacity() + ")");
    }
    return (int) (offset / bucketCapacity);
  }

  /** Moves unassigned bucket {@code b} to class {@code c} with every item free. */
  @GuardedBy("lock")
  private void assignLocked(int b, int c) {
    unlinkLocked(itemSizes.length, b);
    bucketClass[b] = c;
    int items = itemsPerBucket[c];
    int base = b * wordsPerBucket;
    for (int w = 0; w < wordsPerBucket; w++) {
      int bits = Math.min(64, Math.max(0, items - (w << 6)));
      freeBits[base + w] = bits == 64 ? -1L : (1L << bits) - 1;
    }
    classBuckets[c]++;
    pushLocked(c, b);
  }

  /** Returns emptied bucket {@code b} of class {@code c} to the unassigned pool. */
  @GuardedBy("lock")
  private void unassignLocked(int b, int c) {
    unlinkLocked(c, b);
    bucketClass[b] = UNASSIGNED;
    Arrays.fill(freeBits, b * wordsPerBucket, (b + 1) * wordsPerBucket, 0L);
    classBuckets[c]--;
    pushLocked(itemSizes.length, b);
  }

  /** Clears and returns the lowest free item of {@code b}; the caller knows there is one. */
  @GuardedBy("lock")
  private int takeFreeItemLocked(int b) {
    int base = b * wordsPerBucket;
    for (int w = 0; w < wordsPerBucket; w++) {
      long bits = freeBits[base + w];
      if (bits != 0) {
        int i = Long.numberOfTrailingZeros(bits);
        freeBits[base + w] = bits & (bits - 1);
        return (w << 6) + i;
      }
    }
    throw new AssertionError("bucket " + b + " is on a free list but has no free item");
  }

  @GuardedBy("lock")
  private void pushLocked(int list, int b) {
    int h = head[list];
    next[b] = h;
    prev[b] = NONE;
    if (h != NONE) {
      prev[h] = b;
    }
    HEADS.setOpaque(head, list, b);
  }

  @GuardedBy("lock")
  private void unlinkLocked(int list, int b) {
    int p = prev[b];
    int n = next[b];
    if (p == NONE) {
      HEADS.setOpaque(head, list, n);
    } else {
      next[p] = n;
    }
    if (n != NONE) {
      prev[n] = p;
    }
    next[b] = NONE;
    prev[b] = NONE;
  }
}
