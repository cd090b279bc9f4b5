package dev.blockcache.bucket.policy;

import dev.blockcache.bucket.index.AccessSamples;
import java.util.function.LongConsumer;

/**
 * What plain LRU would have hit on a sample of the L2's lookups, beside what the cache hit on the same lookups: the
 * reference that grows the admission window at once where recency alone does far better than the cache.
 *
 * <h2>Design notes</h2>
 * The climber ({@link WindowClimber}) moves the window by what its own steps yield, one sample of many thousand
 * requests at a time: a workload whose blocks are read again soon after their first miss loses most of those hits
 * while a window of 1% holds them too briefly, for a whole sample before the first step. The reference answers a
 * narrower question at every climber check ({@link #growNow}): is an exact LRU of the cache's size hitting far more
 * often on the same lookups? And at the end of each climber sample ({@link #ledTheSample}): did it hit clearly more
 * often over the sample? LRU's hits are counted by replaying the sampled lookups through
 * {@link RecencyShadow}, the cache's own by the lookups themselves, so both counts are over the same lookups and their
 * difference (LRU's <i>lead</i>) has far less noise than either ratio: each lookup that one hit and the other missed
 * moves it by one, so its standard deviation is about the square root of their number.
 * <ul>
 *   <li><b>Sampling</b> is spatial ({@link AccessSamples}): every lookup of a sampled key, at a rate that keeps the
 *       shadow at most {@value #SHADOW_ENTRIES} keys (a cache of fewer blocks is replayed whole), so the shadow is an
 *       LRU of the cache's block count times the rate. When the cache's block count moves the rate by 2x or more,
 *       the shadow starts over. The rate it sets is also what the window's trials ({@link WindowTrials}) replay.</li>
 *   <li><b>Counting</b> starts once the shadow is full: before that its misses are a filling cache's, not LRU's. The
 *       owner hands it the lookups sampled while the cache fills too, so that the shadow is full when the cache is
 *       and a lead shows within {@value #MIN_LOOKUPS} lookups of the fill's end.</li>
 * </ul>
 * Heap: the shadow's fixed arrays (about 40 bytes per shadow key) and the sample ring, whatever the cache's size.
 *
 * <p>Thread-safety: not thread-safe; its owner ({@link WindowSteering}) calls it under the {@link SpaceReclaimer}'s
 * lock.
 */
final class RecencyReference implements AccessSamples.SampleSink {
  /** Most keys the shadow replays: 4,096 keeps its hit ratio within a fraction of a point of a full LRU's. */
  static final int SHADOW_ENTRIES = 4096;
  /** Fewest counted lookups that can show a lead: 2,048 keeps a phase change's first burst from reading as one. */
  static final int MIN_LOOKUPS = 2048;
  /** Standard deviations by which LRU's lead must exceed its margin to count. */
  static final double Z = 3;
  /**
   * LRU's lead (a share of the lookups) that grows the window at once: 20 points, a cache that keeps out what LRU
   * would hit. Smaller leads are left to the climber: a loop's change of phase shows one for a moment, and a window
   * grown for it must then be climbed back down (docs/decisions.md#l2-admission-and-eviction).
   */
  static final double GROWTH_LEAD = 0.2;
  /** Share of the last growth's lead below which the lead must have fallen for the window to grow again. */
  static final double RATCHET = 0.7;
  /**
   * LRU's lead over a whole climber sample beyond which the climber's move is a full step up ({@link #ledTheSample}):
   * 3 points. Below it the climber's own comparison of samples decides; smaller thresholds grew the window in phases
   * where LRU led for a while but a large window then cost more than it had gained
   * (docs/decisions.md#l2-admission-and-eviction).
   */
  static final double SAMPLE_LEAD = 0.03;
  /** LRU's lead over a whole climber sample at or below which the last growth's lead is forgotten. */
  static final double SETTLED_LEAD = 0.005;

  private final AccessSamples samples;
  private final RecencyShadow shadow = new RecencyShadow(2 * SHADOW_ENTRIES);
  /** Keys the shadow holds: the cache's block count times the sampling rate. */
  private int shadowCapacity = 1;
  /** Counted lookups: sampled, with the shadow full. */
  private long lookups;
  /** LRU's hits minus the cache's over the counted lookups. */
  private long lead;
  /** Counted lookups that one of the two hit and the other missed. */
  private long discordant;
  /** Whether the window grew since the climber's sample began. */
  private boolean grewThisSample;
  /** LRU's lead, as a share of the lookups, when the window last grew; infinite when forgotten. */
  private double leadAtLastGrowth = Double.POSITIVE_INFINITY;

  RecencyReference(AccessSamples samples) {
    this.samples = samples;
  }

  /**
   * Whether the window should grow by a full step now, before the climber's sample ends: LRU is ahead of the cache by
   * more than {@value #GROWTH_LEAD} of the lookups counted since the last growth or sample end, beyond noise, over at
   * least {@value #MIN_LOOKUPS} of them; at most once per climber sample; and, while LRU stays ahead, only if its lead
   * has shrunk to below {@value #RATCHET} of what it was at the last growth (a lead that growing the window does not
   * close is not the window's to close). A true answer starts the count anew.
   */
  boolean growNow() {
    if (grewThisSample || !lruAheadBy(GROWTH_LEAD)) {
      return false;
    }
    double share = (double) lead / lookups;
    if (share >= RATCHET * leadAtLastGrowth) {
      return false;
    }
    leadAtLastGrowth = share;
    grewThisSample = true;
    resetCounts();
    return true;
  }

  /**
   * Whether, at the end of a climber sample, LRU led the cache by more than {@value #SAMPLE_LEAD} of the lookups
   * counted since the sample began (or the window last grew), beyond noise: the window then grows by a full step
   * instead of the climber's move, whatever the ratchet of {@link #growNow}. The owner then calls {@link #sampleEnded}.
   */
  boolean ledTheSample() {
    return lruAheadBy(SAMPLE_LEAD);
  }

  /**
   * The climber ended a sample: growth is allowed again, and if LRU was not ahead by more than {@value #SETTLED_LEAD}
   * over the sample, the last growth's lead is forgotten. The count starts anew.
   */
  void sampleEnded() {
    grewThisSample = false;
    if (!lruAheadBy(SETTLED_LEAD)) {
      leadAtLastGrowth = Double.POSITIVE_INFINITY;
    }
    resetCounts();
  }

  /** Whether LRU hit more often than the cache by more than {@code margin} of the counted lookups, beyond noise. */
  private boolean lruAheadBy(double margin) {
    return lookups >= MIN_LOOKUPS && lead - margin * lookups > Z * Math.sqrt(discordant + 1.0);
  }

  @Override
  public void accept(long key, boolean hit) {
    boolean full = shadow.size() >= shadowCapacity;
    boolean lruHit = shadow.access(key);
    if (!full) {
      return; // the shadow is still filling: its misses are not LRU's
    }
    lookups++;
    lead += (lruHit ? 1 : 0) - (hit ? 1 : 0);
    discordant += lruHit != hit ? 1 : 0;
  }

  /**
   * Sets the sampling rate for a cache of {@code cachedBlocks}; a change of 2x or more drops the samples taken at the
   * old rate and restarts the shadow. The owner calls this before each drain of the samples into {@link #accept}.
   */
  void resample(long cachedBlocks) {
    long blocks = Math.max(1, cachedBlocks);
    int wanted = (int) Math.min(AccessSamples.RATE_SCALE,
        Math.max(1, (long) AccessSamples.RATE_SCALE * SHADOW_ENTRIES / blocks));
    int rate = samples.rate();
    if (rate == 0 || wanted >= 2 * rate || 2 * wanted <= rate) {
      samples.setRate(wanted);
      samples.drain((key, hit) -> { }); // sampled at the old rate
      shadow.clear();
      resetCounts();
      rate = wanted;
    }
    shadowCapacity = (int) Math.max(1, Math.min(2L * SHADOW_ENTRIES, blocks * rate / AccessSamples.RATE_SCALE));
    shadow.capacity(shadowCapacity);
  }

  /**
   * Hands the sampled keys the shadow holds to {@code sink}, least recent first: the keys an LRU of the replayed size
   * would hold now, for the trials to start from ({@link WindowTrials}).
   */
  void forEachHeldKey(LongConsumer sink) {
    shadow.forEachOldestFirst(sink);
  }

  /** Keys the shadow replays: the cache's block count times the sampling rate, set by {@link #resample}. */
  int replayedKeys() {
    return shadowCapacity;
  }

  private void resetCounts() {
    lookups = 0;
    lead = 0;
    discordant = 0;
  }

  @Override
  public String toString() {
    return "RecencyReference[lookups " + lookups + ", LRU lead " + lead + ", shadow " + shadow.size() + "/"
        + shadowCapacity + ", rate " + samples.rate() + "]";
  }
}
