package dev.blockcache.bucket.policy;

import dev.blockcache.api.CachePriority;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.index.BlockIndex;

/**
 * The tinylfu policy's order of the priorities for giving up a block: from the one furthest above its share
 * ({@code single/multi/memory.factor}) of the cached bytes to the one furthest below, ties in ordinal order (single
 * first). With {@code memory.factor} 1, in-memory blocks come last whatever their bytes, as in HBase.
 *
 * <p>Thread-safety: not thread-safe (it reuses its arrays); its owner ({@link FrequencyEviction}) calls it under the
 * {@link SpaceReclaimer}'s lock.
 */
final class PriorityShares {
  private final BlockIndex index;
  private final float[] shares;
  private final boolean protectMemory;
  private final CachePriority[] order = new CachePriority[CachePriority.COUNT];
  private final long[] overflow = new long[CachePriority.COUNT];

  PriorityShares(BucketCacheConfig config, BlockIndex index) {
    this.index = index;
    this.shares = new float[] {config.singleFactor(), config.multiFactor(), config.memoryFactor()};
    this.protectMemory = config.memoryFactor() >= 1f;
  }

  /** The priorities, furthest above its share first; the returned array is reused by the next call. */
  CachePriority[] order() {
    long total = 0;
    for (CachePriority p : CachePriority.values()) {
      total += index.bytes(p);
    }
    for (CachePriority p : CachePriority.values()) {
      int i = p.ordinal();
      overflow[i] = index.bytes(p) - (long) (shares[i] * total);
      if (protectMemory && p == CachePriority.MEMORY) {
        overflow[i] = Long.MIN_VALUE;
      }
      order[i] = p;
    }
    // Three elements: an insertion sort, descending by overflow, ties in ordinal order (single first).
    for (int i = 1; i < order.length; i++) {
      CachePriority p = order[i];
      int j = i - 1;
      while (j >= 0 && overflow[order[j].ordinal()] < overflow[p.ordinal()]) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = p;
    }
    return order;
  }
}
