package dev.blockcache.l1.lru;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CachePriority;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What an {@link LruBlockCache} holds, in its accounted units: the total size (block bytes plus the entry overhead),
 * the size at each priority ({@link PrioritySizes}) and the block count of each category. An entry is added when it
 * is admitted and taken out once when it is retired; a promotion moves its bytes from single to multi.
 *
 * <p>Thread-safety: every method may be called from any thread without a lock; totals read at one moment are not a
 * snapshot of one instant.
 */
final class LruAccounts {
  private final AtomicLong size = new AtomicLong();
  private final PrioritySizes prioritySizes = new PrioritySizes();
  private final LongAdder[] blockCounts = new LongAdder[BlockCategory.COUNT];

  LruAccounts() {
    for (int i = 0; i < blockCounts.length; i++) {
      blockCounts[i] = new LongAdder();
    }
  }

  /** Adds {@code blocks} blocks of {@code heapSize} bytes (both negative for a removal) at priority {@code p}. */
  void add(int p, BlockCategory category, long heapSize, int blocks) {
    size.addAndGet(heapSize);
    prioritySizes.add(p, heapSize);
    blockCounts[category.ordinal()].add(blocks);
  }

  /** Moves {@code heapSize} bytes of a promoted entry from single to multi. */
  void promote(long heapSize) {
    prioritySizes.promote(heapSize);
  }

  /** The total accounted size now. */
  long size() {
    return size.get();
  }

  /** The size accounted to priority {@code p} (an ordinal) now. */
  long prioritySize(int p) {
    return prioritySizes.of(p);
  }

  /** The size accounted to each priority, indexed by ordinal. */
  long[] prioritySizes() {
    long[] sizes = new long[CachePriority.COUNT];
    for (int p = 0; p < sizes.length; p++) {
      sizes[p] = prioritySizes.of(p);
    }
    return sizes;
  }

  /** The blocks cached in each category, indexed by ordinal. */
  long[] blockCounts() {
    long[] counts = new long[BlockCategory.COUNT];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = blockCounts[i].sum();
    }
    return counts;
  }
}
