package dev.blockcache.bucket.index;

/**
 * How often each key was accessed recently, estimated in little memory: the frequency the L2's admission and
 * eviction compare (TinyLFU). A count-min sketch of 4-bit counters, halved periodically so that old accesses fade.
 *
 * <h2>Design notes</h2>
 * <p><b>Layout.</b> One {@code long[]}; a word holds 16 counters of 4 bits, in 4 groups of 4. A key hashes to one
 * word and, in each group, to one of its 4 counters, so its 4 counters share a cache line and an update is one read
 * and at most one write:
 * <pre>
 *  word: | group 3: c15 c14 c13 c12 | group 2: c11..c8 | group 1: c7..c4 | group 0: c3..c0 |   (4 bits each)
 *  key k: word = range(h(k), words); counter of group j = 4j + (2 bits of h(k) picked for j)
 * </pre>
 * The estimate is the smallest of the key's 4 counters (count-min); other keys can only raise a counter, so it
 * over-estimates, never under-estimates, up to the cap of 15.
 *
 * <p><b>Updates are conservative:</b> only the counters equal to the current minimum are incremented. That keeps the
 * counters of colliding keys lower, which is what lets a small table ({@value #COUNTERS_PER_ENTRY} counters per
 * cached entry, {@value #COUNTERS_PER_ENTRY}/2 bytes, and at least {@value #MIN_WORDS} words) rank keys usefully.
 *
 * <p><b>Aging.</b> After {@value #SAMPLE_PER_ENTRY} × capacity counted increments every counter is halved, so the
 * sketch reflects roughly the last few cache-fills of accesses, and a block that was hot once fades unless it is
 * used again. The capacity follows the entries the cache holds ({@link #ensureCapacity}), not the entries its engine
 * could hold, and is at least a minimum history ({@link #setMinimumHistory}; {@value #MIN_HISTORY_ENTRIES} until
 * set): a cache of a hundred blocks whose history spanned the thousand entries its engine was laid out for kept
 * blocks that had been popular a hundred fills before, while a history shorter than a loop forgets the loop's blocks
 * before they come round again. Which of the two a small cache suffers from depends on the workload, so its owner
 * may drop the minimum (docs/decisions.md#l2-admission-and-eviction, "Sketch counts").
 *
 * <p><b>Sizing.</b> The table's words are laid out for the entries the owner expects; {@link #ensureCapacity} grows
 * the capacity for the entries the cache holds (the owner calls it off the read path, every so many admissions, so
 * the last growth can come after the cache is full). While the words cover the entries (at least the
 * {@value #MIN_WORDS}-word floor), growing only lengthens the aging period and keeps every count; growing to more words
 * starts from empty counts, as the keys cannot be rehashed. Small caches are thus never reset: a reset table would
 * make the first decisions after the cache fills admit every block against victims of frequency 0, just when
 * admission begins to decide. The table is never shrunk.
 *
 * <p>{@link #ensureCapacity} and {@link #setMinimumHistory} are called by one thread at a time (the owner's lock).
 *
 * <p>Thread-safety: safe for concurrent use without locks, by design approximate: {@link #increment} is a plain
 * read-modify-write of one word (and, for one key in {@value #SAMPLE_RATE}, of the aging counter), so two racing
 * increments may lose one (an estimate off by
 * one, never a broken word: a Java {@code long} array element is written whole on 64-bit JVMs and
 * {@link #ensureCapacity} publishes a new table through a volatile field). Hot keys whose counters are saturated
 * write nothing, so hits on them share no written cache line.
 */
public final class FrequencySketch {
  /** Counters per cache entry: 4 (2 bytes) — keeps heap per entry small while keeping estimates useful. */
  static final int COUNTERS_PER_ENTRY = 4;
  /**
   * Counted increments per entry of capacity between two halvings: 10, TinyLFU's usual history. With the admission
   * window a block no longer needs a short history to get in (4 scored better without a window); 10 keeps loop and
   * scan blocks ranked by their real reuse.
   */
  static final int SAMPLE_PER_ENTRY = 10;
  /** One counted increment in this many moves the aging counter (a power of two): 16 keeps it off most reads. */
  static final int SAMPLE_RATE = 16;
  /**
   * Fewest entries the aging period is set for: 512, a history of 5,120 counted increments, so that a loop over a few
   * thousand blocks keeps its counts in a small cache. The hit-ratio simulator chose it over the cached entries alone
   * (loops lost their counts) and over 768 or more (small caches kept stale blocks)
   * (docs/decisions.md#l2-admission-and-eviction, "Sketch counts").
   */
  public static final int MIN_HISTORY_ENTRIES = 512;
  /** Largest counter value. */
  static final int MAX_COUNT = 15;
  private static final long ONE_BITS_MASK = 0x7777_7777_7777_7777L;

  /**
   * Fewest words of counters: 8,192 (64 KiB, 131,072 counters). A small cache's aging period spans many more keys
   * than it holds (every key looked up is counted, most of them never cached), and with only
   * {@value #COUNTERS_PER_ENTRY} counters per cached entry those keys crowd each other's counters until estimates
   * rank blocks by collisions; the floor gives a cache of up to some ten thousand blocks ten or more counters per
   * entry, and lets it keep its counts while it grows to 32,768 blocks (see {@link #ensureCapacity}). A fixed cost
   * that is nothing per entry at the sizes the heap budget is set for. Smaller floors left a cache of a few thousand
   * blocks ranking by collisions where many keys are read once; a floor twice as large gained no trace. The value is
   * the one the hit-ratio simulator chose (docs/decisions.md#l2-admission-and-eviction, "Sketch counts"; current
   * figures in docs/results/hit-ratio.md).
   */
  static final int MIN_WORDS = 8192;

  private volatile Table table;
  /** Fewest entries the aging period is set for. */
  private long minimumHistory = MIN_HISTORY_ENTRIES;
  /** Most entries {@link #ensureCapacity} was told the cache holds. */
  private long largestReported;

  /** The counters and their aging state, replaced whole when the sketch grows. */
  private static final class Table {
    final long[] words;
    final long entries;
    final long sampleSize;
    /** Counted increments since the last halving; racy on purpose (see the class notes). */
    long additions;

    Table(long entries) {
      this(entries, new long[wordsFor(entries)], 0);
    }

    /** A table whose words are laid out for {@code expectedEntries} and whose aging is set for {@code entries}. */
    Table(long entries, long expectedEntries) {
      this(entries, new long[wordsFor(Math.max(entries, expectedEntries))], 0);
    }

    /** A table for {@code entries} over {@code words}, {@code additions} into its aging period. */
    Table(long entries, long[] words, long additions) {
      this.entries = entries;
      this.words = words;
      this.sampleSize = entries * SAMPLE_PER_ENTRY;
      this.additions = additions;
    }

    /** Words of counters for {@code entries}: COUNTERS_PER_ENTRY counters each, at least MIN_WORDS. */
    static int wordsFor(long entries) {
      long counters = entries * COUNTERS_PER_ENTRY;
      return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(MIN_WORDS, (counters + 15) / 16));
    }
  }

  /**
   * A sketch whose words are laid out for {@code expectedEntries} cached entries and whose aging is set for
   * {@value #MIN_HISTORY_ENTRIES} until {@link #ensureCapacity} reports more.
   */
  public FrequencySketch(long expectedEntries) {
    this.table = new Table(MIN_HISTORY_ENTRIES, expectedEntries);
  }

  /**
   * Grows the capacity if the cache now holds more entries than it is set for: to {@code entries} × 9/8. The small
   * margin keeps the table within 2.25 bytes per cached entry at most. A table whose words still cover the grown
   * capacity keeps its counters and its place in the aging period: a key hashes to the same counters as before. A
   * table that needs more words starts from empty counts.
   */
  public void ensureCapacity(long entries) {
    largestReported = Math.max(largestReported, entries);
    if (entries > table.entries) {
      retable(entries * 9 / 8);
    }
  }

  /**
   * Sets the fewest entries the aging period is set for ({@value #MIN_HISTORY_ENTRIES} until set; 0: the cached
   * entries alone): the capacity becomes the larger of {@code entries} and the most entries reported × 9/8. The
   * counts are kept; a shorter period keeps the same fraction of it behind, so the next halving is no sooner than
   * its place in the period says.
   */
  public void setMinimumHistory(long entries) {
    if (entries != minimumHistory) {
      minimumHistory = entries;
      retable(largestReported * 9 / 8);
    }
  }

  /**
   * Sets the capacity to {@code entries} (at least the minimum history, and 1), keeping the counts and the place in
   * the aging period if the words cover it, else starting from empty counts.
   */
  private void retable(long entries) {
    Table t = table;
    long capacity = Math.max(1, Math.max(minimumHistory, entries));
    if (Table.wordsFor(capacity) > t.words.length) {
      table = new Table(capacity);
      return;
    }
    long additions = capacity < t.entries ? t.additions * capacity / t.entries : t.additions;
    table = new Table(capacity, t.words, additions);
  }

  /** Entries the aging period is set for. */
  public long capacity() {
    return table.entries;
  }

  /** Heap of the table in bytes (the counters; the small objects around them are not counted). */
  public long heapBytes() {
    return 8L * table.words.length;
  }

  /** Records one access of the key whose 64-bit hash (or index fingerprint) is {@code hash}. */
  public void increment(long hash) {
    Table t = table;
    long h = spread(hash);
    int w = wordIndex(h, t.words.length);
    long word = t.words[w];
    int min = MAX_COUNT;
    for (int j = 0; j < 4; j++) {
      min = Math.min(min, counter(word, shift(h, j)));
    }
    if (min == MAX_COUNT) {
      return;
    }
    long updated = word;
    for (int j = 0; j < 4; j++) {
      int s = shift(h, j);
      if (counter(word, s) == min) {
        updated += 1L << s;
      }
    }
    t.words[w] = updated;
    // One counted increment in SAMPLE_RATE, chosen by hash bits the counters do not use: the shared counter is then
    // written rarely (it is the one word every reader would otherwise write), and the halving comes on average after
    // the same number of increments.
    if (((h >>> 8) & (SAMPLE_RATE - 1)) == 0 && ++t.additions >= t.sampleSize / SAMPLE_RATE) {
      halve(t);
    }
  }

  /** The estimated recent accesses of the key whose hash is {@code hash}, in [0, {@value #MAX_COUNT}]. */
  public int frequency(long hash) {
    Table t = table;
    long h = spread(hash);
    long word = t.words[wordIndex(h, t.words.length)];
    int min = MAX_COUNT;
    for (int j = 0; j < 4; j++) {
      min = Math.min(min, counter(word, shift(h, j)));
    }
    return min;
  }

  /** Halves every counter: the aging step. */
  private static void halve(Table t) {
    t.additions = 0;
    long[] words = t.words;
    for (int i = 0; i < words.length; i++) {
      words[i] = (words[i] >>> 1) & ONE_BITS_MASK;
    }
  }

  /** A second mix of the hash, so that word and counter choice stay independent of how the caller built it. */
  private static long spread(long hash) {
    long h = (hash ^ (hash >>> 33)) * 0xff51_afd7_ed55_8ccdL;
    h = (h ^ (h >>> 33)) * 0xc4ce_b9fe_1a85_ec53L;
    return h ^ (h >>> 33);
  }

  /** The word of hash {@code h}: its high 32 bits scaled to [0, words). */
  private static int wordIndex(long h, int words) {
    return (int) (((h >>> 32) * words) >>> 32);
  }

  /** Bit offset of the key's counter in group {@code j}: group base 16j bits plus 4 × (2 bits of h). */
  private static int shift(long h, int j) {
    return (j << 4) + ((int) (h >>> (j << 1)) & 3) * 4;
  }

  private static int counter(long word, int shift) {
    return (int) (word >>> shift) & 0xF;
  }
}
