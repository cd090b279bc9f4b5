package dev.blockcache.bucket.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.index.AccessSamples;
import org.junit.jupiter.api.Test;

/**
 * The trials on synthetic lookups of a cache of {@value #BLOCKS} blocks, replayed whole (every key sampled), fed one
 * scoring period at a time as the steering feeds them.
 */
class WindowTrialsTest {
  private static final int BLOCKS = 200;
  private static final double LOWER = 0.01;
  private static final double UPPER = 0.8;

  /** No keys to start from: restarted trials start empty. */
  private static final WindowTrials.RecentKeys NO_KEYS = sink -> { };

  private final AccessSamples samples = new AccessSamples();
  private final WindowTrials trials = new WindowTrials(samples, LOWER, UPPER, NO_KEYS);

  WindowTrialsTest() {
    samples.setRate(AccessSamples.RATE_SCALE);
  }

  /** Feeds {@code periods} periods of {@code workload}'s lookups with the window at {@code share}. */
  private void feed(ShiftingWorkingSets workload, double share, int periods) {
    feed(trials, workload, share, periods);
  }

  /** Feeds {@code periods} periods of {@code workload}'s lookups to {@code fed} with the window at {@code share}. */
  private static void feed(WindowTrials fed, ShiftingWorkingSets workload, double share, int periods) {
    for (int p = 0; p < periods; p++) {
      fed.update(BLOCKS, share);
      for (int i = 0; i < WindowTrials.PERIOD; i++) {
        fed.accept(workload.next(), false);
      }
    }
  }

  @Test
  void theSharesAreTheBoundsAndTheFixedPointsBetweenEvenFromFloatKeys() {
    assertArrayEquals(new double[] {0.01, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8},
        WindowTrials.sharesBetween((float) LOWER, (float) UPPER));
    assertArrayEquals(new double[] {0.2}, WindowTrials.sharesBetween(0.2f, 0.2f), "a fixed share: one trial");
  }

  @Test
  void whereRecencyWinsTheTrialsProposeALargeWindowButOnlyAfterAStreakOfPeriods() {
    ShiftingWorkingSets workload = new ShiftingWorkingSets(150, 1_500, 3);
    feed(workload, LOWER, WindowTrials.STREAK); // the first fill is not a period: one short of a streak
    assertTrue(Double.isNaN(trials.jumpTarget(LOWER)), "too early: " + trials);
    feed(workload, LOWER, 40);
    double target = trials.jumpTarget(LOWER);
    assertTrue(target >= 0.5, "a large window keeps each new set at once: " + target + ", " + trials);
    assertTrue(Double.isNaN(trials.jumpTarget(target)), "no jump from where the best share already is");
  }

  /** Regression: trials that started empty after the cache filled proposed nothing until they had filled again. */
  @Test
  void trialsStartedFromTheRecentKeysAreFullAndProposeAfterSettlingAndOneStreak() {
    ShiftingWorkingSets workload = new ShiftingWorkingSets(150, 1_500, 3);
    RecencyShadow lru = new RecencyShadow(BLOCKS);
    for (int i = 0; i < 2 * 1_500; i++) {
      lru.access(workload.next()); // two sets: more keys than the trials hold
    }
    WindowTrials started = new WindowTrials(samples, LOWER, UPPER, lru::forEachOldestFirst);
    feed(started, workload, LOWER, WindowTrials.STREAK);
    assertTrue(Double.isNaN(started.jumpTarget(LOWER)), "settling: 2 capacities, 400 lookups, not scored: " + started);
    feed(started, workload, LOWER, 1);
    assertTrue(started.jumpTarget(LOWER) >= 0.5, "full from the start: " + started);
    feed(workload, LOWER, WindowTrials.STREAK + 1); // as many periods as the started trials took
    assertTrue(Double.isNaN(trials.jumpTarget(LOWER)), "trials that start empty fill first: " + trials);
  }

  @Test
  void aLeadFromAnEarlierPhaseWithoutAStreakProposesNothing() {
    feed(new ShiftingWorkingSets(150, 1_500, 3), LOWER, 60);
    assertTrue(!Double.isNaN(trials.jumpTarget(LOWER)), trials.toString());
    // A loop over more blocks than fit: the large windows stop winning, yet the decayed scores still carry the lead
    // of the shifting phases for many periods.
    long first = 1L << 40;
    for (int p = 0; p < WindowTrials.STREAK + 2; p++) {
      trials.update(BLOCKS, LOWER);
      for (int i = 0; i < WindowTrials.PERIOD; i++) {
        trials.accept(first + i % (3 * BLOCKS / 2), false);
      }
    }
    assertTrue(Double.isNaN(trials.jumpTarget(LOWER)), "no streak, no jump: " + trials);
  }

  @Test
  void theTrialsOfAMillionBlockCacheTakeUnderSixTenthsOfAByteOfHeapPerBlock() {
    AccessSamples sampled = new AccessSamples();
    RecencyReference reference = new RecencyReference(sampled);
    WindowTrials large = new WindowTrials(sampled, BucketCacheConfig.DEFAULT_ADMISSION_WINDOW,
        BucketCacheConfig.DEFAULT_ADMISSION_WINDOW_MAX, reference::forEachHeldKey);
    long blocks = 1_000_000;
    reference.resample(blocks); // sets the sampling rate the trials replay
    large.update(reference.replayedKeys(), LOWER);
    assertTrue(large.heapBytes() > 0, large.toString());
    assertTrue(large.heapBytes() < blocks * 6 / 10, large.heapBytes() + " bytes, " + large);
  }

  @Test
  void aChangeOfTheCachesSizeByMoreThanAnEighthStartsTheTrialsOver() {
    feed(new ShiftingWorkingSets(150, 1_500, 3), LOWER, 60);
    trials.update(BLOCKS + BLOCKS / 16, LOWER);
    assertTrue(!Double.isNaN(trials.jumpTarget(LOWER)), "a small change keeps the scores: " + trials);
    trials.update(2 * BLOCKS, LOWER);
    assertTrue(Double.isNaN(trials.jumpTarget(LOWER)), "a restart forgets them: " + trials);
    assertEquals(AccessSamples.RATE_SCALE, samples.rate(), "the trials never set the rate");
  }
}
