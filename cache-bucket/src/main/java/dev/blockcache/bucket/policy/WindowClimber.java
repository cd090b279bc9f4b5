package dev.blockcache.bucket.policy;

/**
 * Hill-climbs the tinylfu admission window's share of the cache between a lower and an upper bound
 * ({@code hbase.bucketcache.admission.window.factor} and {@code .max.factor}), by the hit ratio it yields.
 *
 * <h2>Design notes</h2>
 * A large window is LRU's share of the cache: it serves workloads whose blocks are read again soon after their first
 * miss and rarely after (recency). A small one is the frequency test's: it serves workloads with a stable popular set
 * and scans or loops that would flush an LRU (frequency). No share is right for every workload, or for one workload
 * all day, so the share moves with what it yields, as Caffeine's adaptive window does:
 * <ol>
 *   <li>A <b>sample</b> is at least {@code period} requests (the owner passes a fixed count, enough that sampling
 *       noise stays under the effect of a step; see {@code WindowSteering.CLIMB_SAMPLE}). The first
 *       sample starts at the first call, which the owner makes once the cache is full: the hit ratio of a filling
 *       cache rises whatever the share, and would read as a gain of the first step.</li>
 *   <li>After each sample the share moves by the <b>step</b>, in the same direction if the sample's hit ratio is at
 *       least the previous sample's, in the opposite one if it fell. The first sample moves it up: the window starts
 *       at its lower bound.</li>
 *   <li>The step shrinks by {@value #STEP_DECAY} a sample, so the share settles; a change of the hit ratio of
 *       {@value #RESTART_THRESHOLD} or more (the workload changed) restores the full step
 *       ({@value #INITIAL_STEP} of the cache) in the direction just taken.</li>
 *   <li>The share never leaves [lower, upper]; a step that would cross a bound stops at it.</li>
 * </ol>
 * The climber only decides the share; the window's blocks change one admission at a time (see
 * {@link FrequencyEviction}), so a step is a target, never a burst of evictions.
 *
 * <p>Thread-safety: not thread-safe; its owner ({@link WindowSteering}) calls it under the
 * {@link SpaceReclaimer}'s lock.
 */
final class WindowClimber {
  /** Full step, as a share of the cache: 1/16 crosses the default range in about a dozen samples. */
  static final double INITIAL_STEP = 0.0625;
  /** Step kept per sample: 0.98 halves it in about 35 samples, so the share settles without freezing early. */
  static final double STEP_DECAY = 0.98;
  /** Hit ratio change (in [0, 1]) that restores the full step: 0.05 is a workload change, not sampling noise. */
  static final double RESTART_THRESHOLD = 0.05;

  private final double lower;
  private final double upper;
  private double share;
  /** Signed: the direction of the next move and its size. */
  private double step = INITIAL_STEP;
  private double previousHitRatio;
  private long sampleStartHits;
  private long sampleStartRequests;
  /** Whether the first sample has started. */
  private boolean started;

  /**
   * A climber starting at {@code lower}.
   *
   * @throws IllegalArgumentException unless {@code 0 <= lower <= upper <= 1}
   */
  WindowClimber(double lower, double upper) {
    if (!(lower >= 0 && lower <= upper && upper <= 1)) {
      throw new IllegalArgumentException("window shares must satisfy 0 <= lower <= upper <= 1, were " + lower
          + " and " + upper);
    }
    this.lower = lower;
    this.upper = upper;
    this.share = lower;
  }

  /** Whether the first sample has started (the owner's first check of a full cache). */
  boolean started() {
    return started;
  }

  /** The window's current share of the cache, in [lower, upper]. */
  double share() {
    return share;
  }

  /**
   * Takes the cache's running totals of {@code hits} and {@code requests}; the first call starts the first sample,
   * and once {@code period} requests have passed since a sample started, it ends and the share moves.
   *
   * @return whether the share was reconsidered
   */
  boolean sample(long hits, long requests, long period) {
    if (!started) {
      started = true;
      sampleStartHits = hits;
      sampleStartRequests = requests;
      return false;
    }
    if (!sampleDue(requests, period)) {
      return false;
    }
    long n = requests - sampleStartRequests;
    double hitRatio = (double) (hits - sampleStartHits) / n;
    sampleStartHits = hits;
    sampleStartRequests = requests;
    double change = hitRatio - previousHitRatio;
    previousHitRatio = hitRatio;
    double move = change >= 0 ? step : -step;
    step = Math.abs(change) >= RESTART_THRESHOLD ? Math.copySign(INITIAL_STEP, move) : move * STEP_DECAY;
    share = Math.min(upper, Math.max(lower, share + move));
    return true;
  }

  /** Whether the sample under way has run {@code period} requests at {@code requests} (the cache's running total). */
  boolean sampleDue(long requests, long period) {
    return started && requests - sampleStartRequests >= Math.max(1, period);
  }

  /**
   * Ends the sample under way at {@code hits} and {@code requests} (the cache's running totals) and moves the share up
   * by the full step, for an owner that already knows plain LRU is clearly ahead: the partial sample's hit ratio is
   * what the next sample is compared with. Before the first sample, only starts it.
   */
  void growTowardRecency(long hits, long requests) {
    if (started && requests > sampleStartRequests) {
      previousHitRatio = (double) (hits - sampleStartHits) / (requests - sampleStartRequests);
      share = Math.min(upper, share + INITIAL_STEP);
      step = INITIAL_STEP * STEP_DECAY;
    }
    started = true;
    sampleStartHits = hits;
    sampleStartRequests = requests;
  }

  /**
   * Ends the sample under way at {@code hits} and {@code requests} (the cache's running totals) and sets the share to
   * {@code target} (kept within [lower, upper]), for an owner that knows a better share than the next step would
   * reach: the partial sample's hit ratio is what the next sample is compared with, and the climb goes on from the
   * new share with a quarter of the full step, in the direction just moved (up if the share stayed). Before the first
   * sample, also starts it.
   */
  void moveTo(double target, long hits, long requests) {
    if (started && requests > sampleStartRequests) {
      previousHitRatio = (double) (hits - sampleStartHits) / (requests - sampleStartRequests);
    }
    double moved = Math.min(upper, Math.max(lower, target));
    step = Math.copySign(INITIAL_STEP / 4, moved - share);
    share = moved;
    started = true;
    sampleStartHits = hits;
    sampleStartRequests = requests;
  }

  @Override
  public String toString() {
    return "WindowClimber[share=" + share + ", step=" + step + ", range=[" + lower + ", " + upper + "]]";
  }
}
