package dev.blockcache.bucket.policy;

import dev.blockcache.bucket.index.AccessSamples;
import dev.blockcache.bucket.index.FrequencySketch;
import java.util.Arrays;
import java.util.function.LongConsumer;
import java.util.stream.DoubleStream;

/**
 * Miniature simulations of the L2's policy at several admission-window shares, replayed side by side on the lookups
 * the recency reference samples: a share whose trial has clearly and steadily hit more often than the current
 * share's is where the window should jump ({@link #jumpTarget}).
 *
 * <h2>Design notes</h2>
 * A hill climber ({@link WindowClimber}) learns the right share from the hit ratios of its own consecutive samples,
 * so it needs many samples to cross the range, reads a workload's drift as the effect of its steps and is late after
 * every change of phase. The trials ({@link WindowTrial}) answer "what would each share have hit?" on the same
 * lookups at once. They only propose jumps; the climber keeps climbing between them, since a miniature is a model:
 * following the trials' best share directly moved the window at every change of phase of alternating workloads, and
 * each move flushed counted blocks from the main space (docs/decisions.md, "Reaching LRU where recency wins").
 * <ul>
 *   <li><b>Sampling</b> is the recency reference's ({@link RecencyReference} sets the rate of {@link AccessSamples}):
 *       every lookup of a sampled key, so a trial is the policy at the cache's block count times the rate (at most
 *       {@value RecencyReference#SHADOW_ENTRIES} to twice that many keys; a small cache is replayed whole). The
 *       trials count frequencies in a sketch of their own, whose history is the cache's scaled by the same rate. A
 *       change of the rate, or of the trials' capacity by more than an eighth, starts every trial over, from the keys
 *       the reference's LRU shadow holds (least recent first): a trial that started empty stayed unfilled for most of
 *       a trace whose new keys came slowly once the cache was full, and proposed nothing meanwhile.</li>
 *   <li><b>Scoring</b> starts once the trials are full and have taken {@value #SETTLE_CAPACITIES} capacities' worth
 *       of lookups since: every {@value #PERIOD} counted lookups each trial's hits are
 *       added to its score after the score is multiplied by {@value #DECAY}.</li>
 *   <li><b>A jump</b> is proposed when the best score leads the score of the trial nearest the current share by more
 *       than {@value #JUMP_LEAD} of the decayed lookups and that best trial also hit more than the nearest one in each
 *       of the last {@value #STREAK} periods (so no sooner than {@value #STREAK} periods after the trials started: a
 *       later first proposal leaves a cache that starts at the wrong share there for the first fills of a short
 *       trace, which its whole hit ratio never recovers).</li>
 * </ul>
 * Heap: one sketch and a trial's fixed arrays (about 13 bytes per key) per share, whatever the cache's size.
 *
 * <p>Thread-safety: not thread-safe; its owner ({@link WindowSteering}) calls it under the {@link SpaceReclaimer}'s
 * lock.
 */
final class WindowTrials implements AccessSamples.SampleSink {
  /** Counted lookups per scoring period: 1,024 is a fraction of a point of sampling noise per trial's hit count. */
  static final int PERIOD = 1024;
  /** Score kept per period: 0.99 weighs the last hundred periods, several times a climber sample's lookups. */
  static final double DECAY = 0.99;
  /** Lead, as a share of the decayed lookups, that proposes a jump: half a point, what a jump must be worth. */
  static final double JUMP_LEAD = 0.005;
  /**
   * Lookups, in trial capacities, that full trials take after a restart before they score: restarted trials hold the
   * keys an LRU holds, each counted once, not what each share's policy would have kept, and 2 capacities' worth of
   * lookups lets each policy reshape them (scoring at once proposed a loop's cache a window it then paid for, in the
   * hit-ratio simulator).
   */
  static final int SETTLE_CAPACITIES = 2;
  /** Periods in a row the best trial must have beaten the current share's: a phase's lead, not a moment's. */
  static final int STREAK = 4;
  /** The shares replayed between the two bounds, besides the bounds themselves. */
  private static final double[] INNER_SHARES = {0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9};

  private final AccessSamples samples;
  private final RecentKeys recentKeys;
  private final double[] shares;
  private final WindowTrial[] trials;
  /** Scored against the trial nearest the current share. */
  private final TrialScores scores;
  private FrequencySketch sketch;
  private int rate = -1;
  private int nearCurrent;
  /** Lookups the full trials still take before they score, after a restart. */
  private long settling;

  /** The sampled keys an LRU of the trials' size holds now, which a restart starts the trials from. */
  @FunctionalInterface
  interface RecentKeys {
    /** Hands the keys to {@code sink}, least recent first. */
    void forEachOldestFirst(LongConsumer sink);
  }

  /**
   * Trials at the shares {@link #sharesBetween} {@code lower} and {@code upper}, on the lookups of {@code samples},
   * starting over from {@code recentKeys}.
   */
  WindowTrials(AccessSamples samples, double lower, double upper, RecentKeys recentKeys) {
    this.samples = samples;
    this.recentKeys = recentKeys;
    this.shares = sharesBetween(lower, upper);
    this.trials = new WindowTrial[shares.length];
    this.scores = new TrialScores(shares.length);
  }

  /**
   * The shares the trials replay: both bounds and the fixed points between them, ascending, rounded to a millionth
   * (a bound read from a float-valued key is then the fixed point it was written as).
   */
  static double[] sharesBetween(double lower, double upper) {
    DoubleStream inner = Arrays.stream(INNER_SHARES).filter(s -> s > lower && s < upper);
    return DoubleStream.concat(DoubleStream.of(lower, upper), inner).map(s -> Math.round(s * 1e6) / 1e6).distinct()
        .sorted().toArray();
  }

  /**
   * Sizes the trials to {@code replayedKeys} keys, what the recency reference replays at the current sampling rate
   * ({@link RecencyReference#replayedKeys}), restarting them on a change (see the class notes), and notes the
   * window's {@code currentShare}; call before the samples are drained into {@link #accept}.
   */
  void update(int replayedKeys, double currentShare) {
    int nowRate = samples.rate();
    if (nowRate != rate || resized(trials[0], replayedKeys)) {
      rate = nowRate;
      restart(replayedKeys);
    }
    nearCurrent = nearest(currentShare);
  }

  /**
   * Whether miniatures like {@code current} (null: none yet) must start over at {@code replayedKeys} keys: their size
   * is off by more than an eighth (see the class notes).
   */
  static boolean resized(WindowTrial current, int replayedKeys) {
    return current == null || 8L * Math.abs(replayedKeys - current.capacity()) > current.capacity();
  }

  private void restart(int capacity) {
    for (int i = 0; i < trials.length; i++) {
      trials[i] = new WindowTrial(shares[i], capacity);
    }
    sketch = new FrequencySketch(capacity);
    sketch.ensureCapacity(capacity); // ages over the trial's keys, or the minimum history set (setMinimumHistory)
    recentKeys.forEachOldestFirst(this::replay);
    scores.reset();
    settling = (long) SETTLE_CAPACITIES * capacity;
  }

  /** Counts a lookup of {@code key} in the trials' sketch and replays it in every trial, adding its hits. */
  private void replay(long key) {
    int trialKey = trialKey(key);
    sketch.increment(trialKey);
    for (int i = 0; i < trials.length; i++) {
      if (trials[i].access(trialKey, sketch)) {
        scores.hit(i);
      }
    }
  }

  /** The key a trial holds for the sampled {@code key}: two sampled keys that share 32 bits are one key to it. */
  static int trialKey(long key) {
    return Long.hashCode(key);
  }

  @Override
  public void accept(long key, boolean hit) {
    if (trials[0] == null) {
      return; // not sized yet: the first update sizes the trials
    }
    boolean scoring = trials[0].size() >= trials[0].capacity() && --settling < 0;
    replay(key);
    if (scoring) {
      scores.scored(nearCurrent);
    } else {
      scores.unscored(); // still filling or settling: a filling cache's misses are not the policy's
    }
  }

  /**
   * The share the window should jump to from {@code current}, by the rule of the class notes; NaN when none should.
   */
  double jumpTarget(double current) {
    int leader = scores.leader(nearest(current));
    return leader < 0 ? Double.NaN : shares[leader];
  }

  /**
   * Ages the trials' sketch over at least {@code entries} ({@link FrequencySketch#setMinimumHistory}), as the cache's
   * own ages; call after {@link #update}, which may start a new sketch.
   */
  void setMinimumHistory(long entries) {
    if (sketch != null) {
      sketch.setMinimumHistory(entries);
    }
  }

  /** Heap of the trials' arrays and their sketch in bytes; 0 before the first {@link #update}. */
  long heapBytes() {
    long bytes = sketch == null ? 0 : sketch.heapBytes();
    for (WindowTrial trial : trials) {
      bytes += trial == null ? 0 : trial.heapBytes();
    }
    return bytes;
  }

  /** The index of the trial whose share is nearest {@code share} (the lower of two as near). */
  private int nearest(double share) {
    int near = 0;
    for (int i = 1; i < shares.length; i++) {
      if (Math.abs(shares[i] - share) < Math.abs(shares[near] - share)) {
        near = i;
      }
    }
    return near;
  }

  @Override
  public String toString() {
    int capacity = trials[0] == null ? 0 : trials[0].capacity();
    return "WindowTrials[shares " + Arrays.toString(shares) + ", scores " + scores + ", capacity "
        + capacity + "]";
  }
}
