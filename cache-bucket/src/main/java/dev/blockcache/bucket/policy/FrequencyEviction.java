package dev.blockcache.bucket.policy;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CachePriority;
import dev.blockcache.api.CacheStats;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.EntrySink;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.index.Victim;
import dev.blockcache.bucket.index.VictimFilter;
import dev.blockcache.stats.StatsRecorder;

/**
 * The decisions of {@code hbase.bucketcache.eviction.policy=tinylfu}: which block a new one displaces, and whether
 * the new one is worth it.
 *
 * <h2>Policy</h2>
 * <ul>
 *   <li><b>Which priority gives.</b> If the one furthest above its share ({@code single/multi/memory.factor}) of
 *       the cached bytes is memory, memory; otherwise the colder of a single and a multi candidate (shares alone
 *       evicted frequently read single blocks while colder multi blocks stayed), where a multi candidate counts as
 *       colder only if its estimated frequency is lower by more than {@value #MULTI_PROTECTION}: a block read twice
 *       has shown it is reused, and a sketch estimate that is a little lower is within the sketch's noise and aging.
 *       If neither has a candidate, the priorities in share order; a priority that holds no block of the needed size
 *       class is skipped. With {@code memory.factor} 1, in-memory blocks give last, as in HBase.</li>
 *   <li><b>Which block.</b> Within the priority, from its CLOCK hand: a block read since the hand last passed it keeps
 *       its place, and of the next {@value #SAMPLE} unread blocks of the size class outside the admission window the
 *       least recently read goes (a sampled LRU: every entry carries the recency epoch of its last read, see
 *       {@link BlockIndex#countAdmission}); among blocks read in the same epoch, or all older than the stamps tell
 *       apart, the one with the lowest estimated frequency (the sketch ages, so old popularity fades). The victim must
 *       be of the new block's size class: only an item of that class makes room for it. Frequency then decides
 *       admission (below), as in Caffeine, whose main space evicts in LRU order: choosing the least frequent of the
 *       sample instead (the design before this one) made the main space an LFU over the sample that kept blocks
 *       which had been popular, so recency-driven traces lost to LRU (docs/decisions.md#l2-admission-and-eviction,
 *       "Main victim"), and the hash-order CLOCK alone gives no per-block order to fall back on.</li>
 *   <li><b>Admission (W-TinyLFU).</b> A block admitted into a full size class enters the admission window without a
 *       test: its index entry carries the window bit ({@link IndexEntry#inWindow}; {@link SpaceReclaimer#entry} sets
 *       it), so a block read again soon after its first miss is then a hit, as under LRU. Eviction's victim choice
 *       skips window blocks. When the window is at its share, the block the window's CLOCK hand lets out
 *       ({@link BlockIndex#chooseWindowLeaver}: roughly the least recently read) leaves it; if it is of the new
 *       block's size class it is judged: it stays if its estimated frequency (plus the bias) beats the main
 *       victim's, which then goes; otherwise it goes itself. A leaving block of another class stays unjudged (its
 *       eviction would not make room). Below its share, the window grows into the main victim's item; above it (the
 *       share was lowered), up to {@value #SAMPLE} more blocks leave it unjudged per admission.</li>
 *   <li><b>The window's share</b> is set by {@link WindowSteering} between {@code admission.window.factor} and
 *       {@code admission.window.max.factor}: started where miniature simulations of the fill's sampled lookups say,
 *       hill-climbed by the hit ratio of the cache's requests, glided toward a share whose miniature simulation on
 *       sampled lookups clearly hits more often, and grown by a full step where an exact LRU of the sampled lookups is
 *       far ahead of the cache.</li>
 *   <li><b>Admission without a window</b> ({@code admission.window.factor} 0): the new block is judged on arrival
 *       the same way and enters only if it wins.</li>
 * </ul>
 * The rule ({@link #admits}): a block displaces a victim if the victim's frequency is 0 (nothing says it will be
 * read again) or its own frequency plus the bias exceeds the victim's. One block out per block in: the cache stays
 * full and never evicts in bursts. A loop or scan over more blocks than fit keeps its first blocks instead of
 * flushing the cache. A block leaving the window is judged whatever its priority, so an in-memory block that was not
 * read while in the window can lose the test.
 *
 * <p>Thread-safety: not thread-safe; {@link SpaceReclaimer} calls it under its own lock.
 */
final class FrequencyEviction {
  /** Unread candidates compared per victim choice: 8 finds a cold block cheaply (a few index slots per insert). */
  static final int SAMPLE = 8;
  /**
   * The admission bias: a block leaving the window (or, without a window, a new block) displaces a victim only if its
   * estimated frequency exceeds the victim's by more than 1 (or the victim's is 0): a leaving block must have been
   * read more than its victim, so loop and scan blocks keep their places instead of displacing each other. In the
   * hit-ratio simulator -1 met the bars in more cells than a bias of -2 or a hill-climbed bias
   * (docs/decisions.md#l2-admission-and-eviction, "Sketch counts" and "Admission window").
   */
  static final int BIAS = -1;
  /**
   * How much colder (in sketch counts) a multi candidate must be than the single one to be the victim: more than 2.
   * Multi blocks were read at least twice; the simulator's multi-workload traces kept them better with this margin.
   */
  static final int MULTI_PROTECTION = 2;
  /** Admissions between two looks at the hit ratio for the window's steering: 16 keeps the stats snapshot rare. */
  static final int CLIMB_CHECK_INTERVAL = 16;

  private final BucketAllocator allocator;
  private final BlockIndex index;
  private final EntrySink evicted;
  private final StatsRecorder stats;
  private final PriorityShares shares;
  /** The chosen victim; {@link #other} is the runner-up's scratch (the two swap when the runner-up is colder). */
  private Victim victim = new Victim();
  private Victim other = new Victim();
  /** The block leaving the admission window. */
  private final Victim leaver = new Victim();
  /** The window's share, or null without a window. */
  private final WindowSteering steering;
  private int sinceClimbCheck;
  /** One filter per size class, made once: "the entry's block is of this class and not in the window". */
  private final VictimFilter[] inMainOfClass;
  private static final VictimFilter ANY = (fingerprint, entry) -> true;
  private static final long[] NO_BLOCK_COUNTS = new long[BlockCategory.COUNT];

  FrequencyEviction(BucketCacheConfig config, BucketAllocator allocator, BlockIndex index, EntrySink evicted,
      StatsRecorder stats) {
    this.allocator = allocator;
    this.index = index;
    this.evicted = evicted;
    this.stats = stats;
    this.shares = new PriorityShares(config, index);
    this.steering = config.admissionWindow() == 0 ? null
        : new WindowSteering(config.admissionWindow(), config.admissionWindowMax(), index.samples());
    this.inMainOfClass = new VictimFilter[allocator.sizeClassCount()];
    for (int c = 0; c < inMainOfClass.length; c++) {
      int sizeClass = c;
      inMainOfClass[c] = (fingerprint, entry) -> !IndexEntry.inWindow(entry)
          && allocator.sizeClassOf(IndexEntry.length(entry)) == sizeClass;
    }
  }

  /** Whether blocks admitted into a full cache enter an admission window. */
  boolean hasWindow() {
    return steering != null;
  }

  /**
   * Decides whether a block of {@code length} stored bytes, whose key has {@code frequency}, enters a cache whose size
   * class for it is full, and makes room for it: with a window, the block will enter it and the window's leaving
   * block or the main victim is evicted; without one, the block is judged against the main victim, which it displaces
   * if it wins.
   *
   * @return true to admit (an item was freed, or none of the class could be and the allocation must find room
   *     otherwise), false to decline
   */
  boolean admit(int frequency, int length) {
    index.countAdmission(); // the recency clock: a few epochs per fill of the cache
    if (steering == null) {
      if (!chooseVictim(length)) {
        return true;
      }
      if (!admits(frequency, victim.frequency(), BIAS)) {
        return false;
      }
      index.removeVictim(victim, evicted);
      return true;
    }
    climb();
    long target = windowTarget();
    int sizeClass = allocator.sizeClassOf(length);
    boolean freed = false;
    for (int n = 0; !freed && n < SAMPLE && index.windowSize() >= target && index.chooseWindowLeaver(ANY, leaver);
        n++) {
      if (allocator.sizeClassOf(IndexEntry.length(leaver.entry())) != sizeClass) {
        index.leaveWindow(leaver); // its eviction would not make room: it stays, unjudged
        continue;
      }
      freed = true;
      if (chooseVictim(length) && admits(leaver.frequency(), victim.frequency(), BIAS)) {
        index.removeVictim(victim, evicted);
        index.leaveWindow(leaver);
      } else {
        index.removeVictim(leaver, evicted);
      }
    }
    if (!freed && chooseVictim(length)) {
      index.removeVictim(victim, evicted); // the window is below its share: it grows into the main victim's item
    }
    // The new block is about to enter: a window above its share (its share was lowered) lets the surplus out.
    for (int n = 0; n < SAMPLE && index.windowSize() >= target && index.chooseWindowLeaver(ANY, leaver); n++) {
      index.leaveWindow(leaver);
    }
    return true;
  }

  /**
   * Gives the window's steering the lookups sampled while the cache fills (see {@link WindowSteering#warm}); the owner
   * calls it every {@value SpaceReclaimer#WARM_INTERVAL} blocks taken from free space.
   */
  void warm() {
    if (steering != null) {
      steering.warm(index.size());
    }
  }

  /**
   * Gives the window's steering the cache's hit ratio every {@value #CLIMB_CHECK_INTERVAL} admissions, and ages the
   * sketch over the history the steering says.
   */
  private void climb() {
    if (++sinceClimbCheck < CLIMB_CHECK_INTERVAL) {
      return;
    }
    sinceClimbCheck = 0;
    CacheStats s = stats.snapshot(0, 0, NO_BLOCK_COUNTS);
    steering.check(s.hitCount(), s.requestCount(), index.size());
    index.sketch().setMinimumHistory(steering.minimumHistory());
  }

  /** Blocks the window holds at its share of the cached blocks: 0 without a window, else at least 1. */
  private long windowTarget() {
    return steering == null ? 0 : Math.max(1, (long) (steering.share() * index.size()));
  }

  /**
   * The admission rule: a block whose key has {@code frequency} displaces a victim of {@code victimFrequency} if the
   * victim's is 0 (nothing says it will be read again) or {@code frequency + bias} exceeds it.
   */
  static boolean admits(int frequency, int victimFrequency, int bias) {
    return victimFrequency == 0 || frequency + bias > victimFrequency;
  }

  /**
   * Whether a multi candidate of {@code multiFrequency} is the victim rather than a single candidate of
   * {@code singleFrequency}: only if colder by more than {@value #MULTI_PROTECTION}.
   */
  static boolean multiGives(int multiFrequency, int singleFrequency) {
    return multiFrequency + MULTI_PROTECTION < singleFrequency;
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
    CachePriority[] order = shares.order();
    if (order[0] != CachePriority.MEMORY) {
      boolean single = index.chooseVictim(CachePriority.SINGLE, accept, SAMPLE, victim);
      boolean multi = index.chooseVictim(CachePriority.MULTI, accept, SAMPLE, other);
      if (multi && (!single || multiGives(other.frequency(), victim.frequency()))) {
        Victim colder = other;
        other = victim;
        victim = colder;
      }
      if (single || multi) {
        return true;
      }
    }
    for (CachePriority p : order) {
      if (index.chooseVictim(p, accept, SAMPLE, victim)) {
        return true;
      }
    }
    return false;
  }
}
