package dev.blockcache.bucket;

import dev.blockcache.api.CachePriority;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.EntrySink;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.index.Victim;
import java.util.function.LongPredicate;

/**
 * The decisions of {@code hbase.bucketcache.eviction.policy=tinylfu}: which block a new one displaces, and whether
 * the new one is worth it.
 *
 * <h2>Policy</h2>
 * <ul>
 *   <li><b>Which priority gives.</b> The one furthest above its share ({@code single/multi/memory.factor}) of the
 *       cached bytes, then the others by the same order; a priority that holds no block of the needed size class is
 *       skipped. With {@code memory.factor} 1, in-memory blocks give last, as in HBase.</li>
 *   <li><b>Which block.</b> Within the priority, from its CLOCK hand: a block read since the hand last passed it keeps
 *       its place (recency), and of the next {@value #SAMPLE} unread blocks of the size class the one with the lowest
 *       estimated frequency goes (frequency; the sketch ages, so old popularity fades). The victim must be of the
 *       new block's size class: only an item of that class makes room for it.</li>
 *   <li><b>Admission (TinyLFU).</b> When the size class has no free item, a new block enters only if its estimated
 *       frequency is higher than the victim's, or the victim's is 0 (nothing says it will be read again); it then
 *       displaces exactly that victim. One block out per block in: the cache stays full and never evicts in bursts.
 *       A loop or scan over more blocks than fit is kept at its first blocks instead of flushing the cache.</li>
 * </ul>
 *
 * <p>Thread-safety: not thread-safe; {@link SpaceReclaimer} calls it under its own lock.
 */
final class FrequencyEviction {
  /** Unread candidates compared per victim choice: 8 finds a cold block cheaply (a few index slots per insert). */
  static final int SAMPLE = 8;

  private final BucketCacheConfig config;
  private final BucketAllocator allocator;
  private final BlockIndex index;
  private final EntrySink evicted;
  private final Victim victim = new Victim();
  /** One predicate per size class, made once: "the entry's block is of this class". */
  private final LongPredicate[] inClass;
  private final CachePriority[] order = new CachePriority[CachePriority.COUNT];
  private final long[] overflow = new long[CachePriority.COUNT];

  FrequencyEviction(BucketCacheConfig config, BucketAllocator allocator, BlockIndex index, EntrySink evicted) {
    this.config = config;
    this.allocator = allocator;
    this.index = index;
    this.evicted = evicted;
    this.inClass = new LongPredicate[allocator.sizeClassCount()];
    for (int c = 0; c < inClass.length; c++) {
      int sizeClass = c;
      inClass[c] = entry -> allocator.sizeClassOf(IndexEntry.length(entry)) == sizeClass;
    }
  }

  /**
   * Decides whether a block of {@code length} stored bytes whose key has {@code frequency} enters a cache whose size
   * class for it is full; if so, evicts the block it displaces.
   *
   * @return true to admit (a victim was evicted, or none of the class exists and the allocation must find room
   *     otherwise), false to decline
   */
  boolean admit(int frequency, int length, int bias) {
    if (!chooseVictim(length)) {
      return true;
    }
    if (!admits(frequency, victim.frequency(), bias)) {
      return false;
    }
    index.removeVictim(victim, evicted);
    return true;
  }

  /**
   * The admission rule: a block whose key has {@code frequency} displaces a victim of {@code victimFrequency} if the
   * victim's is 0 (nothing says it will be read again) or {@code frequency + bias} exceeds it.
   */
  static boolean admits(int frequency, int victimFrequency, int bias) {
    return victimFrequency == 0 || frequency + bias > victimFrequency;
  }

  /** Evicts one block of {@code length}'s size class, chosen as for admission; false if there is none. */
  boolean evictOne(int length) {
    return chooseVictim(length) && index.removeVictim(victim, evicted);
  }

  /** The victim for a block of {@code length}, in {@link #victim}; false if the cache holds no block of its class. */
  private boolean chooseVictim(int length) {
    LongPredicate accept = inClass[allocator.sizeClassOf(length)];
    for (CachePriority p : priorityOrder()) {
      if (index.chooseVictim(p, accept, SAMPLE, victim)) {
        return true;
      }
    }
    return false;
  }

  /** Priorities from the one furthest above its share of the cached bytes to the one furthest below. */
  private CachePriority[] priorityOrder() {
    float[] shares = {config.singleFactor(), config.multiFactor(), config.memoryFactor()};
    boolean protectMemory = config.memoryFactor() >= 1f;
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
