package dev.blockcache.bucket.policy;

import dev.blockcache.bucket.index.AccessSamples;

/**
 * Sets the tinylfu admission window's share of the cache: the hill climber's ({@link WindowClimber}) moves, overruled
 * by two references replayed on a sample of the cache's lookups when they know better.
 *
 * <h2>Design notes</h2>
 * At every check (the owner's, once per {@value FrequencyEviction#CLIMB_CHECK_INTERVAL} admissions) the sampled
 * lookups are handed to both references, and the first of these rules that applies sets the share:
 * <ol>
 *   <li><b>Trials</b> ({@link WindowTrials}), at the end of a climber sample: a share whose miniature has clearly and
 *       steadily hit more often than the current share's becomes the goal, and the window glides toward it by at
 *       most {@value #GLIDE} of the cache per sample (a move at once lets many blocks cross the window's edge without
 *       the frequency test, a cost the miniatures do not see), then holds the goal for {@value #HOLD_SAMPLES} samples,
 *       so that the climber's next comparison is not with the hit ratio of the glide.</li>
 *   <li><b>Recency reference</b> ({@link RecencyReference}): where an exact LRU of the sampled lookups is far ahead of
 *       the cache, at once, or clearly ahead over a climber sample, at its end, the window grows by a full step.</li>
 *   <li>Otherwise the climber's own move, at the end of each sample of {@value #CLIMB_SAMPLE} requests.</li>
 * </ol>
 * Without sampled lookups (an index that records none) the climber alone moves the share.
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
  /** Most the share moves toward the trials' goal per climber sample: an eighth of the cache. */
  static final double GLIDE = 0.125;
  /** Climber samples the share stays at a reached goal. */
  static final int HOLD_SAMPLES = 4;

  private final WindowClimber climber;
  /** The sampled lookups; null when the index records none (then so are the references). */
  private final AccessSamples samples;
  private final RecencyReference reference;
  private final WindowTrials trials;
  /** Hands each drained sample to both references. */
  private final AccessSamples.SampleSink bothReferences;
  /** The share the window glides toward; NaN when none. */
  private double goal = Double.NaN;
  private int holdSamples;

  /** Steers a window between shares {@code lower} and {@code upper} by {@code samples} (null: the climber alone). */
  WindowSteering(double lower, double upper, AccessSamples samples) {
    this.climber = new WindowClimber(lower, upper);
    this.samples = samples;
    this.reference = samples == null ? null : new RecencyReference(samples);
    this.trials = samples == null ? null : new WindowTrials(samples, lower, upper);
    this.bothReferences = samples == null ? null : (key, hit) -> {
      reference.accept(key, hit);
      trials.accept(key, hit);
    };
  }

  /** The window's share of the cache now. */
  double share() {
    return climber.share();
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
    reference.resample(cachedBlocks);
    trials.update(reference.replayedKeys(), climber.share());
    samples.drain(bothReferences);
    boolean sampleDue = climber.sampleDue(requests, CLIMB_SAMPLE);
    if (sampleDue && followTrials(hits, requests)) {
      reference.sampleEnded();
    } else if (reference.growNow()) {
      climber.growTowardRecency(hits, requests);
    } else if (sampleDue && reference.ledTheSample()) {
      climber.growTowardRecency(hits, requests); // ends the sample: a full step up
      reference.sampleEnded();
    } else if (climber.sample(hits, requests, CLIMB_SAMPLE)) {
      reference.sampleEnded();
    }
  }

  /** At a climber sample's end: glides toward or holds the trials' goal, if there is one; whether it did. */
  private boolean followTrials(long hits, long requests) {
    double jump = trials.jumpTarget(climber.share());
    if (!Double.isNaN(jump)) {
      goal = jump;
    }
    double share = climber.share();
    if (!Double.isNaN(goal)) {
      double next = share + Math.max(-GLIDE, Math.min(GLIDE, goal - share));
      if (Math.abs(next - goal) < 1e-9) {
        next = goal;
        goal = Double.NaN;
        holdSamples = HOLD_SAMPLES;
      }
      climber.moveTo(next, hits, requests);
      return true;
    }
    if (holdSamples > 0) {
      holdSamples--;
      climber.moveTo(share, hits, requests);
      return true;
    }
    return false;
  }

  @Override
  public String toString() {
    return "WindowSteering[" + climber + ", goal " + goal + ", hold " + holdSamples + ", " + reference + ", "
        + trials + "]";
  }
}
