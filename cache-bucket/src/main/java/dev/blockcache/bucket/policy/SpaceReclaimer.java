package dev.blockcache.bucket.policy;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.L2Policy;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.EntrySink;
import dev.blockcache.bucket.index.FrequencySketch;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.slot.SlotGuard;
import dev.blockcache.policy.PriorityEvictionPlanner;
import dev.blockcache.stats.StatsRecorder;
import java.util.function.LongPredicate;

/**
 * Frees L2 space for blocks that enter the cache, and (under the default policy) decides which blocks enter a full
 * cache. {@code hbase.bucketcache.eviction.policy} picks how:
 *
 * <h2>tinylfu (the default)</h2>
 * Admission, allocation and eviction are one step, {@link #admit}, on the inserting thread: a block takes a free item
 * of its size class, or {@link FrequencyEviction} lets it into the full class through the admission window (whose bit
 * {@link #entry} sets) (or, without one, only if it is estimated to be used more often than the block it displaces),
 * evicts one block for it and the block takes the item freed. If that item is not free yet (a reader still pins the
 * evicted slot), chosen blocks are evicted one at a time, up to {@value #MAX_VICTIMS_PER_ALLOCATION}, then the bucket
 * pass below runs. The admitted block owns its slot from then on, also while it waits for a writer, so the writers
 * never evict under this policy. The cache thus stays full: eviction takes one block per block admitted, never a
 * share of the cache at once. The acceptfactor, minfactor and extrafreefactor do not apply.
 *
 * <h2>hbase</h2>
 * HBase BucketCache's passes and factors:
 * <ol>
 *   <li><b>Global pass</b>, when allocated item bytes exceed {@code acceptFactor × capacity}: free down to
 *       {@code minFactor × capacity}, plus {@code extraFreeFactor} of that amount so that passes are not back to back.
 *       The bytes are split between single, multi and memory blocks by {@link PriorityEvictionPlanner} with targets
 *       {@code factor × minFactor × capacity}, and each priority gives its share through the index's CLOCK sweep.
 *       The allocator counts item bytes and the index stored bytes (header and block, less than the item); the plan
 *       is made in stored bytes, the allocator's figures scaled by the cache's stored-to-item ratio, so that the
 *       priorities' sizes and targets are compared in one unit.</li>
 *   <li><b>Size-class pass</b>, when the block's size class is still starved (the cache may be below the accept
 *       factor while one class has no free item and no empty bucket is left): evict blocks of that class only —
 *       single first, then multi, then memory — at least one item and {@code extraFreeFactor} of the class's items.</li>
 *   <li><b>Bucket pass</b>, when the class holds no block at all (the workload's block sizes moved): random eviction
 *       would take long to empty any bucket, so the bucket of another class holding the fewest bytes is emptied
 *       outright and moves to the starved class. This pass scans the buckets and the index; it runs only when the
 *       size mix shifts.</li>
 * </ol>
 * The global and size-class passes cost the entries their CLOCK sweeps visit, not a scan of the index. Evicted
 * slots go to the sink, which frees them once no reader holds them, so a pinned slot comes back later than the pass;
 * a block that still finds no slot is dropped and counted ({@code NO_SPACE}).
 *
 * <p>Thread-safety: {@link #allocateReclaiming} and the full-cache part of {@link #admit} are serialised on this
 * object; concurrent writers (hbase) or inserting threads (tinylfu) wait for the running pass and then retry their
 * allocation, which usually succeeds without a pass of their own. {@link #admit} takes no lock of this object while
 * the block's size class has a free item (only the allocator's, to take it). Lock order: this object, then a CLOCK
 * hand, then one index segment; the allocator's lock is a leaf.
 */
public final class SpaceReclaimer {
  private final BucketCacheConfig config;
  private final BucketAllocator allocator;
  private final BlockIndex index;
  private final EntrySink evicted;
  private final StatsRecorder stats;
  /** The tinylfu policy's decisions, or null under the hbase policy. */
  private final FrequencyEviction frequency;
  /**
   * Admissions since the sketch's size was last checked; racy on purpose (a check more or less is harmless). The
   * first admission checks it, so that a cache restored full ages its sketch by its entries from then on.
   */
  private int sinceSketchCheck = SKETCH_CHECK_INTERVAL - 1;
  /** Blocks taken from free space since the last {@link #warm}; racy on purpose, as {@link #sinceSketchCheck}. */
  private int sinceWarm;

  /** {@link #admit}: admitted without a slot; the writer allocates one (the hbase policy). */
  static final long NO_SLOT = -1;
  /** {@link #admit}: the policy keeps the block out. */
  static final long DECLINED = -2;
  /** {@link #admit}: admitted, but no item of its size class could be freed. */
  static final long NO_SPACE = -3;

  /** Most blocks one allocation evicts under tinylfu before it falls back to the bucket pass. */
  static final int MAX_VICTIMS_PER_ALLOCATION = 8;
  /**
   * Blocks taken from free space between two hand-overs of the sampled lookups to the window's steering while the
   * cache fills ({@link FrequencyEviction#warm}): 64 drains the samples' rings long before they wrap, unless lookups
   * outnumber new blocks 16 to 1, and takes this object's lock once per 64 blocks.
   */
  static final int WARM_INTERVAL = 64;
  /** Admissions between two checks that the sketch is sized for the entries cached: 1,024 keeps the check rare. */
  static final int SKETCH_CHECK_INTERVAL = 1024;

  public SpaceReclaimer(BucketCacheConfig config, BucketAllocator allocator, BlockIndex index, EntrySink evicted,
      StatsRecorder stats) {
    this.stats = stats;
    this.config = config;
    this.allocator = allocator;
    this.index = index;
    this.evicted = evicted;
    boolean tinyLfu = config.evictionPolicy() == L2Policy.TINYLFU;
    if (tinyLfu && index.sketch() == null) {
      throw new IllegalArgumentException("the tinylfu policy needs an index built with a frequency sketch");
    }
    this.frequency = tinyLfu ? new FrequencyEviction(config, allocator, index, evicted, stats) : null;
  }

  /** The sketch an index for {@code config} counts accesses in: one under tinylfu, null under hbase. */
  public static FrequencySketch sketchFor(BucketCacheConfig config, int expectedEntries) {
    return config.evictionPolicy() == L2Policy.TINYLFU ? new FrequencySketch(expectedEntries) : null;
  }

  /**
   * Decides whether a block of {@code stored} bytes under {@code key} enters the cache and, under tinylfu, takes its
   * slot in the same step. A size class with a free item admits the block into it; a full one admits it only as
   * {@link FrequencyEviction#admit} decides, which evicts the block it displaces, and the freed item is then taken
   * under the same lock. So an admitted block owns its slot from admission on: no other admission can count the
   * item freed for it as free, however long the block then waits for a writer. (Admission that only looked for a
   * free item, leaving the allocation to the writer, let every block queued behind the first see the one item freed
   * for that first block, enter without an eviction of its own and leave the writers to evict for it; theirs took
   * blocks outside the admission window only, so the window, into which every block of a full class enters,
   * swallowed the cache until the writers found nothing to evict and dropped blocks as {@code NO_SPACE}.)
   *
   * @return the admitted block's slot offset (the caller writes it, or frees it through the {@link SlotGuard} if it
   *     does not), {@link #NO_SLOT} when admitted without a slot (the hbase policy: the writer allocates),
   *     {@link #DECLINED} when the policy keeps the block out, or {@link #NO_SPACE} when no item could be freed (the
   *     displaced blocks pinned by readers, say)
   */
  long admit(BlockKey key, int stored) {
    if (frequency == null) {
      return NO_SLOT;
    }
    if (++sinceSketchCheck >= SKETCH_CHECK_INTERVAL) {
      sinceSketchCheck = 0;
      growSketch();
    }
    long offset = allocator.allocate(stored);
    if (offset < 0) {
      return admitFull(key, stored);
    }
    if (++sinceWarm >= WARM_INTERVAL) {
      sinceWarm = 0;
      warm();
    }
    return offset;
  }

  private synchronized void warm() {
    frequency.warm();
  }

  private synchronized void growSketch() {
    index.sketch().ensureCapacity(index.size());
  }

  private synchronized long admitFull(BlockKey key, int stored) {
    long offset = allocator.allocate(stored);
    if (offset >= 0) {
      return offset;
    }
    stats.evictionRun();
    if (!frequency.admit(index.frequency(key), stored)) {
      return DECLINED;
    }
    offset = allocator.allocate(stored);
    if (offset < 0) {
      offset = allocateAfterVictims(stored); // the displaced block's slot is still pinned by a reader, say
    }
    return offset >= 0 ? offset : NO_SPACE;
  }

  /**
   * The index entry for a block of {@code stored} bytes just written at {@code offset}. Under tinylfu with a window,
   * a block that took the last free item of its size class (the class is full: the block was admitted by the
   * window's rule, or is the one that filled it) enters the admission window; every other block enters outside it.
   */
  public long entry(long offset, int stored, CachePriority priority, BlockCategory category) {
    long entry = IndexEntry.pack(offset, stored, priority, category);
    return frequency != null && frequency.hasWindow() && !allocator.hasRoomFor(stored)
        ? IndexEntry.intoWindow(entry) : entry;
  }

  /**
   * Allocates a slot for {@code length} stored bytes, evicting as the policy says when none is free: for a block
   * admitted without one ({@link #NO_SLOT}, the hbase policy).
   *
   * @return the slot's offset, or -1 if none could be freed (every candidate pinned by readers, say)
   */
  public synchronized long allocateReclaiming(int length) {
    long offset = allocator.allocate(length);
    if (offset >= 0) {
      return offset;
    }
    stats.evictionRun();
    if (frequency != null) {
      return allocateAfterVictims(length);
    }
    long capacity = allocator.capacity();
    long used = allocator.stats().usedItemBytes();
    if (used > (long) (config.acceptFactor() * capacity)) {
      long minSize = (long) (config.minFactor() * capacity);
      evictPlanned((long) ((used - minSize) * (1 + config.extraFreeFactor())), minSize);
      offset = allocator.allocate(length);
      if (offset >= 0) {
        return offset;
      }
    }
    if (evictSizeClass(length) == 0) {
      emptyCheapestBucket(allocator.sizeClassOf(length));
    }
    return allocator.allocate(length);
  }

  /** tinylfu: evicts chosen blocks of the class one at a time until an item is free, then the bucket pass. */
  @GuardedBy("this")
  private long allocateAfterVictims(int length) {
    for (int i = 0; i < MAX_VICTIMS_PER_ALLOCATION && frequency.evictOne(length); i++) {
      long offset = allocator.allocate(length);
      if (offset >= 0) {
        return offset;
      }
    }
    emptyCheapestBucket(allocator.sizeClassOf(length));
    return allocator.allocate(length);
  }

  /** Evicts every block of the bucket that is cheapest to empty, so that it can move to {@code sizeClass}. */
  @GuardedBy("this")
  private void emptyCheapestBucket(int sizeClass) {
    long start = allocator.cheapestBucketToEmpty(sizeClass);
    if (start < 0) {
      return;
    }
    long end = start + allocator.bucketCapacity();
    index.removeEntries(entry -> IndexEntry.offset(entry) >= start && IndexEntry.offset(entry) < end, evicted);
  }

  /** Evicts blocks of {@code length}'s size class, counted in items (a block takes one whatever its length). */
  @GuardedBy("this")
  private long evictSizeClass(int length) {
    int sizeClass = allocator.sizeClassOf(length);
    long usedItems = allocator.stats().sizeClasses().get(sizeClass).usedItems();
    long remaining = Math.max(1, (long) Math.ceil(usedItems * config.extraFreeFactor()));
    LongPredicate inClass = entry -> allocator.sizeClassOf(IndexEntry.length(entry)) == sizeClass;
    long evicted = 0;
    for (CachePriority p : CachePriority.values()) {
      if (remaining <= 0) {
        break;
      }
      long items = index.evictEntries(p, remaining, inClass, this.evicted);
      evicted += items;
      remaining -= items;
    }
    return evicted;
  }

  /**
   * The global pass. {@code bytesToFree} and {@code minSize} are allocator item bytes; the index's per-priority
   * sizes and its sweeps are stored bytes, so both are scaled by stored / item bytes before the plan is made.
   */
  @GuardedBy("this")
  private long evictPlanned(long bytesToFree, long minSize) {
    long[] sizes = new long[CachePriority.COUNT];
    long[] targets = new long[CachePriority.COUNT];
    float[] factors = {config.singleFactor(), config.multiFactor(), config.memoryFactor()};
    long storedTotal = 0;
    for (CachePriority p : CachePriority.values()) {
      sizes[p.ordinal()] = index.bytes(p);
      storedTotal += sizes[p.ordinal()];
    }
    long usedItemBytes = allocator.stats().usedItemBytes();
    double storedPerItemByte = usedItemBytes == 0 ? 1 : Math.min(1.0, (double) storedTotal / usedItemBytes);
    for (CachePriority p : CachePriority.values()) {
      targets[p.ordinal()] = (long) (factors[p.ordinal()] * minSize * storedPerItemByte);
    }
    PriorityEvictionPlanner.Mode mode = config.memoryFactor() >= 1f
        ? PriorityEvictionPlanner.Mode.PROTECT_IN_MEMORY : PriorityEvictionPlanner.Mode.NORMAL;
    long[] plan = PriorityEvictionPlanner.plan((long) (bytesToFree * storedPerItemByte), sizes, targets, mode);
    long freed = 0;
    for (CachePriority p : CachePriority.values()) {
      if (plan[p.ordinal()] > 0) {
        freed += index.evict(p, plan[p.ordinal()], SpaceReclaimer::any, evicted);
      }
    }
    return freed;
  }

  /** Takes every entry: the global pass evicts whatever the sweep reaches. */
  private static boolean any(long entry) {
    return true;
  }
}
