package dev.blockcache.bucket.policy;

import dev.blockcache.bucket.index.AccessSamples;
import dev.blockcache.bucket.index.FrequencySketch;

/**
 * Which history a small cache's sketch should keep: two miniatures of the policy ({@link WindowTrial}) at the window's
 * share, replayed on the sampled lookups, one counting in a sketch that ages over the sketch's minimum history
 * ({@value FrequencySketch#MIN_HISTORY_ENTRIES} entries, scaled by the sampling rate) and one in a sketch that ages
 * over its own keys; {@link #minimumHistory} is the one whose miniature has clearly and steadily hit more.
 *
 * <h2>Design notes</h2>
 * A cache whose entries (× 9/8) reach the minimum history ages over its entries either way, and no duel runs
 * ({@link #update} drops the miniatures). Below it the two histories differ, and the workload decides which wins: a
 * loop longer than the cache keeps its blocks' counts only in the longer history, while blocks that were hot for
 * a while and are no longer (and saturated counters, which no longer count toward aging) hold a small cache's main
 * space for many fills under it. The cache starts with the longer history, the sketch's default.
 * <ul>
 *   <li><b>Sampling, restarts and scoring</b> are the window trials' ({@link WindowTrials}, {@link TrialScores}):
 *       the miniatures hold the keys the recency reference replays, start over from the keys its LRU shadow holds on
 *       a change of the rate or of their size by more than an eighth, and score every {@value WindowTrials#PERIOD}
 *       counted lookups once full and settled. They keep the share they started at: a restart at every move of the
 *       window would leave them settling most of the time.</li>
 *   <li><b>A switch</b> to the other history needs its score to lead the current one's by more than
 *       {@value WindowTrials#JUMP_LEAD} of the decayed lookups, and its miniature to have hit more in each of the last
 *       {@value WindowTrials#STREAK} periods.</li>
 * </ul>
 * Heap: two sketches of the smallest size and two miniatures of a small cache's keys, only while the duel runs.
 *
 * <p>Thread-safety: not thread-safe; its owner ({@link WindowSteering}) calls it under the {@link SpaceReclaimer}'s
 * lock.
 */
final class HistoryDuel implements AccessSamples.SampleSink {
  private static final int LONGER = 0;
  private static final int SHORTER = 1;

  private final AccessSamples samples;
  private final WindowTrials.RecentKeys recentKeys;
  /** The miniatures, by history; null while no duel runs. */
  private WindowTrial[] trials;
  private final FrequencySketch[] sketches = new FrequencySketch[2];
  /** Scored against the kept history's miniature. */
  private final TrialScores scores = new TrialScores(2);
  /** The history the cache keeps: {@link #LONGER} or {@link #SHORTER}. */
  private int kept = LONGER;
  private int rate = -1;
  private long settling;

  /** A duel on the lookups of {@code samples}, whose miniatures start over from {@code recentKeys}. */
  HistoryDuel(AccessSamples samples, WindowTrials.RecentKeys recentKeys) {
    this.samples = samples;
    this.recentKeys = recentKeys;
  }

  /**
   * Sizes the miniatures to {@code replayedKeys} keys at the window's {@code currentShare} if the two histories
   * differ at this size, restarting them on a change (see the class notes), or drops them if not; call before the
   * samples are drained into {@link #accept}.
   */
  void update(int replayedKeys, double currentShare) {
    int nowRate = samples.rate();
    long longer = (long) FrequencySketch.MIN_HISTORY_ENTRIES * nowRate / AccessSamples.RATE_SCALE;
    if (longer <= replayedKeys * 9L / 8) {
      trials = null;
      kept = LONGER;
      return;
    }
    if (nowRate != rate || WindowTrials.resized(trials == null ? null : trials[LONGER], replayedKeys)) {
      rate = nowRate;
      restart(replayedKeys, currentShare, longer);
    }
  }

  private void restart(int capacity, double share, long longer) {
    trials = new WindowTrial[] {new WindowTrial(share, capacity), new WindowTrial(share, capacity)};
    for (int i = LONGER; i <= SHORTER; i++) {
      sketches[i] = new FrequencySketch(capacity);
      sketches[i].ensureCapacity(capacity);
    }
    sketches[LONGER].setMinimumHistory(longer);
    sketches[SHORTER].setMinimumHistory(0);
    recentKeys.forEachOldestFirst(this::replay);
    scores.reset();
    settling = (long) WindowTrials.SETTLE_CAPACITIES * capacity;
  }

  /** Counts a lookup of {@code key} in both sketches and replays it in both miniatures, adding their hits. */
  private void replay(long key) {
    int trialKey = WindowTrials.trialKey(key);
    for (int i = LONGER; i <= SHORTER; i++) {
      sketches[i].increment(trialKey);
      if (trials[i].access(trialKey, sketches[i])) {
        scores.hit(i);
      }
    }
  }

  @Override
  public void accept(long key, boolean hit) {
    if (trials == null) {
      return;
    }
    boolean scoring = trials[LONGER].size() >= trials[LONGER].capacity() && --settling < 0;
    replay(key);
    if (!scoring) {
      scores.unscored();
    } else if (scores.scored(kept)) {
      int leader = scores.leader(kept);
      kept = leader < 0 ? kept : leader;
    }
  }

  /**
   * The fewest entries the cache's sketch should age over ({@link FrequencySketch#setMinimumHistory}): its default,
   * or 0 (its own entries) where the shorter history has won the duel.
   */
  long minimumHistory() {
    return kept == SHORTER ? 0 : FrequencySketch.MIN_HISTORY_ENTRIES;
  }

  /** Heap of the miniatures' arrays and their sketches in bytes; 0 while no duel runs. */
  long heapBytes() {
    if (trials == null) {
      return 0;
    }
    return sketches[LONGER].heapBytes() + sketches[SHORTER].heapBytes() + trials[LONGER].heapBytes()
        + trials[SHORTER].heapBytes();
  }

  @Override
  public String toString() {
    return "HistoryDuel[" + (trials == null ? "off" : "scores " + scores) + ", keeps "
        + (kept == SHORTER ? "the shorter" : "the longer") + " history]";
  }
}
