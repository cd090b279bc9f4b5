package dev.blockcache.bucket;

import dev.blockcache.api.CachePriority;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.EntrySink;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.index.Victim;
import dev.blockcache.bucket.index.VictimFilter;

/**
 * The decisions of {@code hbase.bucketcache.eviction.policy=tinylfu}: which block a new one displaces, and whether
 * the new one is worth it.
 *
 * <h2>Policy</h2>
 * <ul>
 *   <li><b>Which priority gives.</b> If the one furthest above its share ({@code single/multi/memory.factor}) of
 *       the cached bytes is memory, memory; otherwise the colder of a single and a multi candidate (shares alone
 *       evicted frequently read single blocks while colder multi blocks stayed). If neither has a candidate, the
 *       priorities in share order; a priority that holds no block of the needed size class is skipped. With
 *       {@code memory.factor} 1, in-memory blocks give last, as in HBase.</li>
 *   <li><b>Which block.</b> Within the priority, from its CLOCK hand: a block read since the hand last passed it keeps
 *       its place (recency), and of the next {@value #SAMPLE} unread blocks of the size class the one with the lowest
 *       estimated frequency goes (frequency; the sketch ages, so old popularity fades). The victim must be of the
 *       new block's size class: only an item of that class makes room for it.</li>
 *   <li><b>Admission (W-TinyLFU).</b> When the size class has no free item, a new block enters the admission
 *       window ({@link AdmissionWindow}, {@code admission.window.factor} of the cached blocks) without a test: a
 *       block read again soon after its first miss is then a hit, as under LRU. Eviction's victim choice skips
 *       window blocks. When the window is at its share, its oldest block of the new block's size class leaves it
 *       and is judged: it stays if its estimated frequency (plus the bias) beats the main victim's, which then goes;
 *       otherwise it goes itself. Older window blocks of other classes leave unjudged (their eviction would not make
 *       room). Below its share, the window grows into the main victim's item.</li>
 *   <li><b>Admission without a window</b> ({@code admission.window.factor} 0): the new block is judged on arrival
 *       the same way and enters only if it wins.</li>
 * </ul>
 * The rule ({@link #admits}): a block displaces a victim if the victim's frequency is 0 (nothing says it will be
 * read again) or its own frequency plus the bias exceeds the victim's. One block out per block in: the cache stays
 * full and never evicts in bursts. A loop or scan over more blocks than fit keeps its first blocks instead of
 * flushing the cache.
 *
 * <p>Thread-safety: not thread-safe; {@link SpaceReclaimer} calls it under its own lock.
 */
final class FrequencyEviction {
  /** Unread candidates compared per victim choice: 8 finds a cold block cheaply (a few index slots per insert). */
  static final int SAMPLE = 8;
  /**
   * The admission bias: a block leaving the window (or, without a window, a new block) displaces a victim only if its
   * estimated frequency exceeds the victim's by more than 1 (or the victim's is 0). -1 kept loop and scan blocks in
   * place in the simulator (biases 0 to -4 and a hill-climbed bias were tried; see docs/benchmarks.md).
   */
  static final int BIAS = -1;

  private final BucketCacheConfig config;
  private final BucketAllocator allocator;
  private final BlockIndex index;
  private final EntrySink evicted;
  /** The chosen victim; {@link #other} is the runner-up's scratch (the two swap when the runner-up is colder). */
  private Victim victim = new Victim();
  private Victim other = new Victim();
  private final AdmissionWindow window = new AdmissionWindow();
  /** One filter per size class, made once: "the entry's block is of this class and not in the window". */
  private final VictimFilter[] inMainOfClass;
  private final CachePriority[] order = new CachePriority[CachePriority.COUNT];
  private final long[] overflow = new long[CachePriority.COUNT];

  FrequencyEviction(BucketCacheConfig config, BucketAllocator allocator, BlockIndex index, EntrySink evicted) {
    this.config = config;
    this.allocator = allocator;
    this.index = index;
    this.evicted = evicted;
    this.inMainOfClass = new VictimFilter[allocator.sizeClassCount()];
    for (int c = 0; c < inMainOfClass.length; c++) {
      int sizeClass = c;
      inMainOfClass[c] = (fingerprint, entry) -> allocator.sizeClassOf(IndexEntry.length(entry)) == sizeClass
          && !window.contains(fingerprint);
    }
  }

  /**
   * Decides whether a block of {@code length} stored bytes, whose key the index stores under ({@code segment},
   * {@code fingerprint}) and has {@code frequency}, enters a cache whose size class for it is full, and makes room for
   * it: with a window, the block enters it and the window's leaving block or the main victim is evicted; without one,
   * the block is judged against the main victim, which it displaces if it wins.
   *
   * @return true to admit (an item was freed, or none of the class could be and the allocation must find room
   *     otherwise), false to decline
   */
  boolean admit(int segment, long fingerprint, int frequency, int length) {
    long target = windowTarget();
    if (target == 0) {
      if (!chooseVictim(length)) {
        return true;
      }
      if (!admits(frequency, victim.frequency(), BIAS)) {
        return false;
      }
      index.removeVictim(victim, evicted);
      return true;
    }
    int sizeClass = allocator.sizeClassOf(length);
    boolean freed = false;
    while (!freed && window.size() >= target) {
      long leaving = window.oldestFingerprint();
      int leavingSegment = window.oldestSegment();
      window.removeOldest();
      long entry = index.peek(leavingSegment, leaving);
      if (entry != IndexEntry.ABSENT && allocator.sizeClassOf(IndexEntry.length(entry)) == sizeClass) {
        freed = true;
        if (chooseVictim(length) && admits(index.sketch().frequency(leaving), victim.frequency(), BIAS)) {
          index.removeVictim(victim, evicted);
        } else {
          index.remove(leavingSegment, leaving, entry, evicted);
        }
      }
    }
    if (!freed && chooseVictim(length)) {
      index.removeVictim(victim, evicted); // the window is below its share: it grows into the main victim's item
    }
    window.add(fingerprint, segment);
    return true;
  }

  /** Blocks the window holds at its share of the cached blocks: 0 without a window, else at least 1. */
  private long windowTarget() {
    float share = config.admissionWindow();
    return share == 0 ? 0 : Math.max(1, (long) (share * index.size()));
  }

  /** Blocks in the admission window (including any the index has since dropped). */
  int windowSize() {
    return window.size();
  }

  /** Estimated heap of the admission window's bookkeeping. */
  long windowHeapBytes() {
    return window.heapBytes();
  }

  /**
   * The admission rule: a block whose key has {@code frequency} displaces a victim of {@code victimFrequency} if the
   * victim's is 0 (nothing says it will be read again) or {@code frequency + bias} exceeds it.
   */
  static boolean admits(int frequency, int victimFrequency, int bias) {
    return victimFrequency == 0 || frequency + bias > victimFrequency;
  }

  /**
   * Evicts one block of {@code length}'s size class outside the window, chosen as for admission; false if there is
   * none.
   */
  boolean evictOne(int length) {
    return chooseVictim(length) && index.removeVictim(victim, evicted);
  }

  /** The victim for a block of {@code length}, in {@link #victim}; false if the cache holds no block of its class. */
  private boolean chooseVictim(int length) {
    VictimFilter accept = inMainOfClass[allocator.sizeClassOf(length)];
    if (priorityOrder()[0] != CachePriority.MEMORY) {
      boolean single = index.chooseVictim(CachePriority.SINGLE, accept, SAMPLE, victim);
      boolean multi = index.chooseVictim(CachePriority.MULTI, accept, SAMPLE, other);
      if (multi && (!single || other.frequency() < victim.frequency())) {
        Victim colder = other;
        other = victim;
        victim = colder;
      }
      if (single || multi) {
        return true;
      }
    }
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
