package dev.blockcache.bucket.index;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;

/**
 * The L2 cache's compact index (HBase's "backing map"): which device slot holds which block, in a few tens of bytes
 * of heap per block ({@code IndexHeapFootprintTest} pins the bound) and no object per block.
 *
 * <p>How it is laid out, locked, swept and sized: the package documentation.
 *
 * <p>Thread-safety: safe for concurrent use by any number of threads.
 */
public final class BlockIndex {
  /** Eviction weights: bytes (stored length), or one per entry. */
  private static final LongUnaryOperator BY_LENGTH = IndexEntry::length;

  /** Bits of the fingerprint that carry the file tag: 24 keeps 40 key bits per file while tags rarely collide. */
  public static final int TAG_BITS = 24;
  /** Key-hash bits that pick the stripe inside a file group: 8 stripes, so one huge file uses 8 locks. */
  public static final int SUB_BITS = 3;
  static final int SUB_BITS_POW = 1 << SUB_BITS;

  private final Segment[] segments;
  private final int groupMask;
  private final LongAdder size = new LongAdder();
  private final LongAdder[] bytes = new LongAdder[CachePriority.COUNT];
  /** Entries in the admission window. */
  private final LongAdder window = new LongAdder();
  /** One CLOCK hand per priority, then the admission window's. */
  private final ClockHand[] hands = new ClockHand[CachePriority.COUNT + 1];
  private final ClockHand windowHand;
  /** Access frequencies for admission and victim choice, or null: the index then counts nothing. */
  private final FrequencySketch sketch;
  /** The recency epoch (tinylfu) that reads and inserts stamp on their entries. */
  private final RecencyClock recency = new RecencyClock();
  /** Sampled lookups (tinylfu), or null when the index counts nothing. */
  private final AccessSamples samples;

  /**
   * An empty index laid out for about {@code expectedEntries} entries; it grows past that without limit.
   *
   * @throws IllegalArgumentException if {@code expectedEntries} is negative
   */
  public BlockIndex(int expectedEntries) {
    this(expectedEntries, null);
  }

  /**
   * As {@link #BlockIndex(int)}, counting every {@link #get} in {@code sketch} (null: no counting), which
   * {@link #frequency} and {@link #chooseVictim} then read.
   *
   * @throws IllegalArgumentException if {@code expectedEntries} is negative
   */
  public BlockIndex(int expectedEntries, FrequencySketch sketch) {
    this.sketch = sketch;
    this.samples = sketch == null ? null : new AccessSamples();
    if (expectedEntries < 0) {
      throw new IllegalArgumentException("expectedEntries must be >= 0, was " + expectedEntries);
    }
    int groups = IndexHeap.fileGroupsFor(expectedEntries);
    this.groupMask = groups - 1;
    for (int p = 0; p < CachePriority.COUNT; p++) {
      bytes[p] = new LongAdder();
    }
    for (int h = 0; h < hands.length; h++) {
      hands[h] = new ClockHand();
    }
    this.windowHand = hands[CachePriority.COUNT];
    this.segments = new Segment[groups << SUB_BITS];
    for (int i = 0; i < segments.length; i++) {
      segments[i] = new Segment(size, bytes, window, sketch != null);
    }
  }

  /** The stored fingerprint of {@code key} ({@link Fingerprint}); never 0. */
  public static long fingerprint(BlockKey key) {
    return fingerprint(key.fileHash(), key.hash64());
  }

  /** The stored fingerprint of the key whose {@link BlockKey#fileHash()} and {@link BlockKey#hash64()} are given. */
  public static long fingerprint(long fileHash, long hash64) {
    return Fingerprint.of(fileHash, hash64);
  }

  /** The segment of the key whose {@link BlockKey#fileHash()} and {@link BlockKey#hash64()} are given. */
  public int segmentIndex(long fileHash, long hash64) {
    return ((int) fileHash & groupMask) << SUB_BITS | (int) (hash64 >>> (64 - SUB_BITS));
  }

  private Segment segmentOf(BlockKey key) {
    return segments[segmentIndex(key.fileHash(), key.hash64())];
  }

  /**
   * Returns the entry or {@link IndexEntry#ABSENT}; marks it accessed (CLOCK reference bit) and promotes a SINGLE
   * entry to MULTI (a block read again moves to multi, as in HBase's BucketCache), moving its bytes between the
   * per-priority totals. The returned value carries the priority after promotion.
   */
  public long get(BlockKey key) {
    return get(segmentIndex(key), fingerprint(key));
  }

  /**
   * {@link #get(BlockKey)} for a key known by its {@link #segmentIndex} and {@link #fingerprint}: for a hit path that
   * keeps its key out of methods the JIT may not inline, so that a key built per lookup need not be allocated
   * (see {@code BlockLookup}).
   */
  public long get(int segment, long fingerprint) {
    FrequencySketch s = sketch;
    if (s != null) {
      s.increment(fingerprint); // a hit or a miss: both are accesses the admission weighs
    }
    long entry = segments[segment].lookup(fingerprint, Segment.Access.TOUCH, recency.epoch());
    if (samples != null) {
      samples.record(fingerprint, entry != IndexEntry.ABSENT);
    }
    return entry;
  }

  /**
   * Counts one block admitted into a full cache (tinylfu): every {@code size() / }
   * {@value RecencyClock#EPOCHS_PER_FILL} of them (at least 1), the recency epoch that reads and inserts stamp on
   * their entries advances by one. Callers serialise (the L2's reclaimer calls it under its lock); lookups read the
   * epoch without a lock.
   */
  public void countAdmission() {
    recency.countAdmission(size());
  }

  /** The current recency epoch (see {@link #countAdmission}); its low 8 bits are what entries are stamped with. */
  public int epoch() {
    return recency.epoch();
  }

  /** The estimated recent accesses of {@code key} ({@link FrequencySketch#frequency}); 0 without a sketch. */
  public int frequency(BlockKey key) {
    FrequencySketch s = sketch;
    return s == null ? 0 : s.frequency(fingerprint(key));
  }

  /** The lookups {@link #get} samples (when it counts in a sketch), or null. */
  public AccessSamples samples() {
    return samples;
  }

  /** The sketch {@link #get} counts in, or null. */
  public FrequencySketch sketch() {
    return sketch;
  }

  /**
   * Chooses, without removing it, the entry of {@code priority} that eviction should take next: from the priority's
   * CLOCK hand, a referenced entry loses its bit and is passed over (it was read since the hand last came by), and
   * among the next {@code sample} unreferenced entries that {@code accept} takes the least recently read wins (the
   * oldest recency stamp; see the class notes), of equally old ones the one with the lowest estimated frequency, and
   * of those the first. The hand moves past the entries examined; it stops as
   * {@link #evict} does ({@link ClockHand}'s stop rule). Needs a sketch.
   *
   * @return whether a victim was found; {@code victim} describes it
   * @throws IllegalStateException if the index has no sketch
   */
  public boolean chooseVictim(CachePriority priority, VictimFilter accept, int sample, Victim victim) {
    Objects.requireNonNull(accept, "accept");
    if (sketch == null) {
      throw new IllegalStateException("victim choice needs a frequency sketch");
    }
    victim.reset();
    hands[priority.ordinal()].sample(segments, priority.ordinal(), sample, accept, sketch, recency.epoch(), victim);
    return victim.found();
  }

  /**
   * Chooses, without changing it, the entry that leaves the admission window next (entries whose
   * {@link IndexEntry#inWindow} bit is set, whatever their priority): from the window's own CLOCK hand, a referenced
   * entry loses its bit and is passed over, and the first unreferenced one that {@code accept} takes is the choice, so
   * the window lets out roughly its least recently read block. The hand stops as {@link #evict} does. Needs a sketch
   * ({@code victim} carries the entry's estimated frequency, for the admission test).
   *
   * @return whether an entry was found; {@code victim} describes it
   * @throws IllegalStateException if the index has no sketch
   */
  public boolean chooseWindowLeaver(VictimFilter accept, Victim victim) {
    Objects.requireNonNull(accept, "accept");
    if (sketch == null) {
      throw new IllegalStateException("a window leaver's choice needs a frequency sketch");
    }
    victim.reset();
    windowHand.sample(segments, Segment.WINDOW, 1, accept, sketch, recency.epoch(), victim);
    return victim.found();
  }

  /**
   * Takes the entry {@link #chooseWindowLeaver} chose out of the admission window, if it is still mapped as it was:
   * it stays cached, and eviction may choose it from then on.
   *
   * @return whether its window bit was cleared
   */
  public boolean leaveWindow(Victim leaver) {
    return leaver.found() && segments[leaver.segment].leaveWindow(leaver.fingerprint, leaver.entry & ~Segment.REF_BIT);
  }

  /** Entries in the admission window ({@link IndexEntry#inWindow}); a recent, not an atomic, count. */
  public long windowSize() {
    return window.sum();
  }

  /**
   * Removes the entry {@link #chooseVictim} chose, if it is still mapped as it was, and passes it to {@code sink}
   * once the segment lock is released.
   *
   * @return whether it was removed (false if something else removed it meanwhile)
   */
  public boolean removeVictim(Victim victim, EntrySink sink) {
    return victim.found() && remove(victim.segment, victim.fingerprint, victim.entry & ~Segment.REF_BIT, sink);
  }

  /**
   * Removes the entry stored under ({@code segment}, {@code fingerprint}) if it is exactly {@code entry}, and passes
   * it to {@code sink} once the segment lock is released. The pair is the key's {@link #segmentIndex} and
   * {@link #fingerprint}.
   *
   * @return whether it was removed
   */
  public boolean remove(int segment, long fingerprint, long entry, EntrySink sink) {
    if (entry < 0 || !segments[segment].remove(fingerprint, entry)) {
      return false;
    }
    sink.removed(entry);
    return true;
  }

  /** The segment {@code key} lives in. With {@link #fingerprint} it locates the key without the key. */
  public int segmentIndex(BlockKey key) {
    return segmentIndex(key.fileHash(), key.hash64());
  }

  /** Like {@link #peek(BlockKey)} for a key known by its {@link #segmentIndex} and {@link #fingerprint}. */
  public long peek(int segment, long fingerprint) {
    return segments[segment].lookup(fingerprint, Segment.Access.PEEK);
  }

  /** Like {@link #get} without touching access state (reference bit, priority): for revalidation after pinning. */
  public long peek(BlockKey key) {
    return segmentOf(key).lookup(fingerprint(key), Segment.Access.PEEK);
  }

  /**
   * Inserts {@code entry} if the key is absent: unreferenced, or referenced if it is in the admission window (the
   * window's hand then passes it once before it can leave).
   *
   * @return {@link IndexEntry#ABSENT} when inserted, else the existing entry, unchanged (also on a fingerprint
   *     collision with another key: see the class notes)
   * @throws IllegalArgumentException if {@code entry} is negative (not a packed {@link IndexEntry})
   */
  public long putIfAbsent(BlockKey key, long entry) {
    checkEntry(entry);
    return segmentOf(key).putIfAbsent(fingerprint(key), entry, recency.epoch());
  }

  /** Removes the mapping of {@code key} only if it is exactly {@code entry} (reference bit ignored). */
  public boolean remove(BlockKey key, long entry) {
    return entry >= 0 && segmentOf(key).remove(fingerprint(key), entry);
  }

  /**
   * Removes every entry of {@code file}, calling {@code sink} for each while holding that entry's segment write
   * lock. Cost: the slots of the file's group ({@value #SUB_BITS_POW} segments, ~size()/{@link #fileGroups()}
   * entries). Entries of another file with the same tag and group go too (see the class notes).
   *
   * @return the number of entries removed
   */
  public int removeFile(String file, EntrySink sink) {
    Objects.requireNonNull(sink, "sink");
    long fileHash = BlockKey.fileHash(file);
    long tag = Fingerprint.tagOf(fileHash);
    int first = segmentIndex(fileHash, 0);
    int removed = 0;
    for (int s = 0; s < SUB_BITS_POW; s++) {
      removed += segments[first + s].removeTag(tag, sink);
    }
    return removed;
  }

  /**
   * Removes every entry that {@code accept} takes, whatever its priority or reference bit, passing each to
   * {@code sink} (under its segment's write lock). Cost: a scan of the whole index, one segment at a time — for rare
   * repairs such as emptying one bucket so that it can change size class, never for routine eviction.
   *
   * @return the entries removed
   */
  public int removeEntries(LongPredicate accept, EntrySink sink) {
    Objects.requireNonNull(accept, "accept");
    Objects.requireNonNull(sink, "sink");
    int removed = 0;
    for (Segment segment : segments) {
      removed += segment.removeEntries(accept, sink);
    }
    return removed;
  }

  /**
   * CLOCK eviction of entries of {@code priority}, from the priority's persistent hand: a referenced entry loses its
   * bit and stays; an unreferenced one is removed and passed to {@code sink} (under its segment's write lock), until
   * at least {@code bytesToFree} bytes (sum of {@link IndexEntry#length}) are removed, a full revolution saw no entry
   * of the priority, or two revolutions are done. Cost: the slots visited.
   *
   * @return bytes removed (may exceed {@code bytesToFree} by less than one entry, or fall short if not enough)
   */
  public long evict(CachePriority priority, long bytesToFree, EntrySink sink) {
    return evict(priority, bytesToFree, BlockIndex::any, sink);
  }

  /**
   * {@link #evict(CachePriority, long, EntrySink)} restricted to entries that {@code accept} takes (a size class,
   * say); the others are neither evicted nor lose their reference bit. The cost is still the entries the hand
   * visits, so a rare kind of entry may cost a revolution.
   */
  public long evict(CachePriority priority, long bytesToFree, LongPredicate accept, EntrySink sink) {
    return sweep(priority, bytesToFree, accept, BY_LENGTH, sink);
  }

  /**
   * {@link #evict(CachePriority, long, LongPredicate, EntrySink)} counting entries instead of bytes: removes
   * {@code count} accepted entries (fewer if there are not enough). For a size class, where every entry takes one
   * item whatever its length.
   *
   * @return entries removed
   */
  public long evictEntries(CachePriority priority, long count, LongPredicate accept, EntrySink sink) {
    return sweep(priority, count, accept, BlockIndex::oneEach, sink);
  }

  private long sweep(CachePriority priority, long need, LongPredicate accept, LongUnaryOperator weight,
      EntrySink sink) {
    Objects.requireNonNull(sink, "sink");
    Objects.requireNonNull(accept, "accept");
    int p = priority.ordinal();
    return need <= 0 ? 0 : hands[p].sweep(segments, p, need, accept, weight, sink);
  }

  /** Entries in the index. */
  public long size() {
    return size.sum();
  }

  /** Sum of {@link IndexEntry#length} over the entries of priority {@code p}. */
  public long bytes(CachePriority p) {
    return bytes[p.ordinal()].sum();
  }

  /**
   * Estimated heap taken by the index: slot arrays and per-segment objects (compressed oops assumed); an index's
   * heap before it exists is {@link IndexHeap#projectedHeapBytes}.
   */
  public long heapBytes() {
    long slots = 0;
    long stamps = 0;
    for (Segment s : segments) {
      slots += s.capacityForMetrics();
      stamps += s.stampHeapBytes();
    }
    return IndexHeap.heapBytes(segments.length, (double) slots) + stamps + (sketch == null ? 0 : sketch.heapBytes());
  }

  /**
   * Visits the entries that may be {@code file}'s, as {@link #forEach} does: those of its file group whose tag is the
   * file's, which includes entries of another file with the same tag and group (see the class notes), so a caller
   * that must be exact checks each block's key. Cost: the slots of the file's group.
   */
  public void forEachOfFile(String file, EntryVisitor v) {
    Objects.requireNonNull(v, "v");
    long fileHash = BlockKey.fileHash(file);
    long tag = Fingerprint.tagOf(fileHash);
    int first = segmentIndex(fileHash, 0);
    EntryVisitor ofTag = (segment, fingerprint, entry) -> {
      if (Fingerprint.tagOf(fingerprint) == tag) {
        v.visit(segment, fingerprint, entry);
      }
    };
    for (int s = 0; s < SUB_BITS_POW; s++) {
      segments[first + s].forEach(first + s, ofTag);
    }
  }

  /** Visits every entry as (segment, fingerprint, entry), one segment at a time under its read lock. */
  public void forEach(EntryVisitor v) {
    Objects.requireNonNull(v, "v");
    for (int i = 0; i < segments.length; i++) {
      segments[i].forEach(i, v);
    }
  }

  /**
   * Visits the entries of segment {@code segment} as (segment, fingerprint, entry) under its read lock, as
   * {@link #forEach} visits each segment: lets a caller do work between segments, outside any lock.
   *
   * @throws IllegalArgumentException on a segment out of range
   */
  public void forEachIn(int segment, EntryVisitor v) {
    Objects.requireNonNull(v, "v");
    if (segment < 0 || segment >= segments.length) {
      throw new IllegalArgumentException("segment must be in [0, " + segments.length + "), was " + segment);
    }
    segments[segment].forEach(segment, v);
  }

  /**
   * Puts back a triple visited by {@link #forEach} of an index with the same {@link #segmentCount()}.
   *
   * @return {@link IndexEntry#ABSENT} when inserted, else the existing entry
   * @throws IllegalArgumentException on a segment out of range, a 0 fingerprint or a negative entry
   */
  public long restore(int segment, long fingerprint, long entry) {
    if (segment < 0 || segment >= segments.length) {
      throw new IllegalArgumentException("segment must be in [0, " + segments.length + "), was " + segment);
    }
    if (fingerprint == 0) {
      throw new IllegalArgumentException("fingerprint 0 marks an empty slot");
    }
    checkEntry(entry);
    return segments[segment].putIfAbsent(fingerprint, entry, recency.epoch());
  }

  /**
   * Sizes segment {@code segment} for {@code entries} entries before they are {@link #restore restored}, so the
   * restore neither resizes nor clusters.
   *
   * @throws IllegalArgumentException on a segment out of range or a negative count
   */
  public void presize(int segment, int entries) {
    if (segment < 0 || segment >= segments.length || entries < 0) {
      throw new IllegalArgumentException("segment " + segment + " must be in [0, " + segments.length
          + ") and entries " + entries + " >= 0");
    }
    segments[segment].presize(entries);
  }

  /** Removes every entry, calling {@code sink} for each under its segment's write lock. */
  public void clear(EntrySink sink) {
    Objects.requireNonNull(sink, "sink");
    for (Segment s : segments) {
      s.clear(sink);
    }
  }

  /** Number of segments (a persisted index restores only into an index with the same count). */
  public int segmentCount() {
    return segments.length;
  }

  /** Number of file groups: removeFile scans about size() / fileGroups() entries. */
  public int fileGroups() {
    return groupMask + 1;
  }

  private static void checkEntry(long entry) {
    if (entry < 0) {
      throw new IllegalArgumentException("not a packed IndexEntry: " + entry);
    }
  }

  /** Takes every entry. */
  private static boolean any(long entry) {
    return true;
  }

  /** Eviction weight of one per entry, whatever its length. */
  private static long oneEach(long entry) {
    return 1;
  }
}
