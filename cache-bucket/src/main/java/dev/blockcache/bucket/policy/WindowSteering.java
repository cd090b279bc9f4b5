package dev.blockcache.bucket.policy;

import dev.blockcache.bucket.index.AccessSamples;
import dev.blockcache.bucket.index.FrequencySketch;

/**
 * Sets the tinylfu admission window's share of the cache: the hill climber's ({@link WindowClimber}) moves, overruled
 * by two references replayed on a sample of the cache's lookups when they know better.
 *
 * <h2>Design notes</h2>
 * At every check (the owner's, once per {@value FrequencyEviction#CLIMB_CHECK_INTERVAL} admissions) the sampled
 * lookups are handed to both references, and the first of these rules that applies sets the share:
 * <ol>
 *   <li><b>Trials</b> ({@link WindowTrials}): a share whose miniature has clearly and steadily hit more often than the
 *       current share's becomes the goal, and the window glides toward it by at most {@value #GLIDE} of the cache a
 *       step (a move at once lets many blocks cross the window's edge without the frequency test, a cost the
 *       miniatures do not see). A new goal takes its first step at once; the next is due at the end of a climber
 *       sample or once the cache has missed as many times as it holds blocks since the last step, whichever comes
 *       first: a large cache glides a step a sample, a small one, which refills many times a sample, at the pace of
 *       its own turnover. Once reached, the goal ends the climber's sample and the climb goes on from it.</li>
 *   <li><b>Recency reference</b> ({@link RecencyReference}): where an exact LRU of the sampled lookups is far ahead of
 *       the cache, at once, or clearly ahead over a climber sample, at its end, the window grows by a full step.</li>
 *   <li>Otherwise the climber's own move, at the end of each sample of {@value #CLIMB_SAMPLE} requests.</li>
 * </ol>
 * The recency reference also replays the lookups sampled while the cache fills ({@link #warm}: from its first
 * hand-over on), so it knows the workload when the cache is full and the first check comes, and the trials start from
 * the keys its LRU shadow then holds. The same lookups choose where the window starts ({@link StartingShare}): at the
 * first check, a share whose ¾-size miniature clearly hit more of them than the lower bound's. After the fill, the
 * sampled lookups also tell a small cache which history its frequency sketch keeps ({@link HistoryDuel}, through
 * {@link #minimumHistory}; the trials' sketch keeps the same one). Without sampled lookups (an index that records
 * none) the climber alone moves the share.
 *
 * <p>Thread-safety: not thread-safe; its owner ({@link FrequencyEviction}) calls it under the {@link SpaceReclaimer}'s
 * lock.
 */
final class WindowSteering {
  /**
   * Requests per climber sample: 16,384 keeps the sampling noise of a hit ratio under half a point, and a cache of
   * any size gets samples as often as a small one. A sample of 10 x the cached blocks (Caffeine's) left large caches
   * at the lower bound for a whole trace in the simulator, and one of 1 x the blocks let small caches climb on noise.
   */
  static final int CLIMB_SAMPLE = 16_384;
  /** Most the share moves toward the trials' goal in one step: an eighth of the cache. */
  static final double GLIDE = 0.125;

  private final WindowClimber climber;
  /** The sampled lookups; null when the index records none (then so are the references). */
  private final AccessSamples samples;
  private final RecencyReference reference;
  private final WindowTrials trials;
  private final StartingShare startingShare;
  private final HistoryDuel historyDuel;
  /** Hands each drained sample to both references. */
  private final AccessSamples.SampleSink bothReferences;
  /** Hands each sample drained while the cache fills to the recency reference and the starting share. */
  private final AccessSamples.SampleSink fillSink;
  /** The share the window glides toward; NaN when none. */
  private double goal = Double.NaN;
  /** The cache's running misses at the last step toward the goal. */
  private long missesAtLastStep;

  /** Steers a window between shares {@code lower} and {@code upper} by {@code samples} (null: the climber alone). */
  WindowSteering(double lower, double upper, AccessSamples samples) {
    this.climber = new WindowClimber(lower, upper);
    this.samples = samples;
    this.reference = samples == null ? null : new RecencyReference(samples);
    this.trials = samples == null ? null : new WindowTrials(samples, lower, upper, reference::forEachHeldKey);
    this.historyDuel = samples == null ? null : new HistoryDuel(samples, reference::forEachHeldKey);
    this.startingShare = samples == null ? null
        : new StartingShare(samples, WindowTrials.sharesBetween(lower, upper));
    this.fillSink = samples == null ? null : (key, hit) -> {
      reference.accept(key, hit);
      startingShare.record(key);
    };
    this.bothReferences = samples == null ? null : (key, hit) -> {
      reference.accept(key, hit);
      trials.accept(key, hit);
      historyDuel.accept(key, hit);
    };
  }

  /** The window's share of the cache now. */
  double share() {
    return climber.share();
  }

  /**
   * Takes the lookups sampled since the last call while the cache of {@code cachedBlocks} blocks fills, before the
   * first {@link #check}: the recency reference replays them, so that its LRU shadow is full when the cache is, and
   * the starting share records them. The trials start at the first check, from the keys the shadow then holds. Does
   * nothing once the checks have begun.
   */
  void warm(long cachedBlocks) {
    if (samples == null || climber.started()) {
      return;
    }
    reference.resample(cachedBlocks);
    samples.drain(fillSink);
  }

  /**
   * Takes the cache's running totals of {@code hits} and {@code requests} and the lookups sampled since the last call,
   * for a cache of {@code cachedBlocks} blocks, and moves the share if one of the rules of the class notes says so.
   */
  void check(long hits, long requests, long cachedBlocks) {
    if (samples == null) {
      climber.sample(hits, requests, CLIMB_SAMPLE);
      return;
    }
    boolean firstCheck = !climber.started();
    reference.resample(cachedBlocks);
    if (firstCheck) {
      double start = startingShare.choose(reference.replayedKeys());
      if (!Double.isNaN(start)) {
        climber.moveTo(start, hits, requests);
      }
    }
    trials.update(reference.replayedKeys(), climber.share());
    historyDuel.update(reference.replayedKeys(), climber.share());
    trials.setMinimumHistory(historyDuel.minimumHistory());
    samples.drain(bothReferences);
    if (firstCheck) {
      reference.sampleEnded(); // the fill's lookups: the cache held every block, as LRU did
    }
    boolean sampleDue = climber.sampleDue(requests, CLIMB_SAMPLE);
    if (followTrials(hits, requests, cachedBlocks, sampleDue)) {
      return;
    }
    if (reference.growNow()) {
      climber.growTowardRecency(hits, requests);
    } else if (sampleDue && reference.ledTheSample()) {
      climber.growTowardRecency(hits, requests); // ends the sample: a full step up
      reference.sampleEnded();
    } else if (climber.sample(hits, requests, CLIMB_SAMPLE)) {
      reference.sampleEnded();
    }
  }

  /**
   * Takes the trials' proposal, if any, and glides toward the goal, if there is one, by the first rule of the class
   * notes; whether a goal owns the share at this check (then no other rule applies).
   */
  private boolean followTrials(long hits, long requests, long cachedBlocks, boolean sampleDue) {
    double share = climber.share();
    double jump = trials.jumpTarget(share);
    boolean newGoal = !Double.isNaN(jump) && jump != goal;
    if (newGoal) {
      goal = jump;
    }
    if (Double.isNaN(goal)) {
      return false;
    }
    long misses = requests - hits;
    boolean turnedOver = misses - missesAtLastStep >= Math.max(1, cachedBlocks);
    if (newGoal || sampleDue || turnedOver) {
      double next = share + Math.max(-GLIDE, Math.min(GLIDE, goal - share));
      if (Math.abs(next - goal) < 1e-9) {
        next = goal;
        goal = Double.NaN;
      }
      climber.moveTo(next, hits, requests);
      reference.sampleEnded();
      missesAtLastStep = misses;
    }
    return true;
  }

  /**
   * The fewest entries the cache's sketch should age over ({@link FrequencySketch#setMinimumHistory}): what the
   * {@link HistoryDuel} says, or the sketch's default without sampled lookups.
   */
  long minimumHistory() {
    return historyDuel == null ? FrequencySketch.MIN_HISTORY_ENTRIES : historyDuel.minimumHistory();
  }

  @Override
  public String toString() {
    return "WindowSteering[" + climber + ", goal " + goal + ", " + reference + ", "
        + trials + ", " + historyDuel + "]";
  }
}
