package dev.blockcache.bucket;

import dev.blockcache.api.CachePriority;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.EntrySink;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.policy.PriorityEvictionPlanner;
import dev.blockcache.stats.StatsRecorder;
import java.util.function.LongPredicate;

/**
 * Frees L2 space when a writer cannot allocate a slot, with HBase BucketCache's factors.
 *
 * <h2>Policy</h2>
 * <ol>
 *   <li><b>Global pass</b>, when allocated item bytes exceed {@code acceptFactor × capacity}: free down to
 *       {@code minFactor × capacity}, plus {@code extraFreeFactor} of that amount so that passes are not back to back.
 *       The bytes are split between single, multi and memory blocks by {@link PriorityEvictionPlanner} with targets
 *       {@code factor × minFactor × capacity}, and each priority gives its share through the index's CLOCK sweep.</li>
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
 * <p>Thread-safety: {@link #reclaimFor} is serialised; concurrent writers wait for the running pass and then retry
 * their allocation, which usually succeeds without a pass of their own.
 */
final class SpaceReclaimer {
  private final BucketCacheConfig config;
  private final BucketAllocator allocator;
  private final BlockIndex index;
  private final EntrySink evicted;
  private final StatsRecorder stats;

  SpaceReclaimer(BucketCacheConfig config, BucketAllocator allocator, BlockIndex index, EntrySink evicted,
      StatsRecorder stats) {
    this.stats = stats;
    this.config = config;
    this.allocator = allocator;
    this.index = index;
    this.evicted = evicted;
  }

  /**
   * Allocates a slot for {@code length} stored bytes, evicting as the policy says when none is free.
   *
   * @return the slot's offset, or -1 if none could be freed (every candidate pinned by readers, say)
   */
  synchronized long allocateReclaiming(int length) {
    long offset = allocator.allocate(length);
    if (offset >= 0) {
      return offset;
    }
    stats.evictionRun();
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

  /** Evicts every block of the bucket that is cheapest to empty, so that it can move to {@code sizeClass}. */
  private void emptyCheapestBucket(int sizeClass) {
    long start = allocator.cheapestBucketToEmpty(sizeClass);
    if (start < 0) {
      return;
    }
    long end = start + allocator.bucketCapacity();
    index.removeEntries(entry -> IndexEntry.offset(entry) >= start && IndexEntry.offset(entry) < end, evicted);
  }

  /** Evicts blocks of {@code length}'s size class, counted in items (a block takes one whatever its length). */
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

  private long evictPlanned(long bytesToFree, long minSize) {
    long[] sizes = new long[CachePriority.COUNT];
    long[] targets = new long[CachePriority.COUNT];
    float[] factors = {config.singleFactor(), config.multiFactor(), config.memoryFactor()};
    for (CachePriority p : CachePriority.values()) {
      sizes[p.ordinal()] = index.bytes(p);
      targets[p.ordinal()] = (long) (factors[p.ordinal()] * minSize);
    }
    long[] plan = PriorityEvictionPlanner.plan(bytesToFree, sizes, targets, config.memoryFactor() >= 1f);
    long freed = 0;
    for (CachePriority p : CachePriority.values()) {
      if (plan[p.ordinal()] > 0) {
        freed += index.evict(p, plan[p.ordinal()], ALL, evicted);
      }
    }
    return freed;
  }

  private static final LongPredicate ALL = entry -> true;
}
