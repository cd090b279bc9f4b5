package dev.blockcache.bucket.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Pins the window's hill climber on synthetic hit-ratio signals: a hit ratio that is a function of the share, fed
 * back one sample at a time, as the cache's hits would be.
 */
class WindowClimberTest {
  private static final long PERIOD = 10_000;

  /** Feeds {@code samples} samples of {@code hitRatio(share)}; returns the shares after each. */
  private static double[] climb(WindowClimber climber, DoubleUnaryOperator hitRatio, int samples) {
    double[] shares = new double[samples];
    long hits = 0;
    long requests = 0;
    climber.sample(hits, requests, PERIOD); // starts the first sample
    for (int i = 0; i < samples; i++) {
      hits += Math.round(hitRatio.applyAsDouble(climber.share()) * PERIOD);
      requests += PERIOD;
      assertTrue(climber.sample(hits, requests, PERIOD), "a full period is a sample");
      shares[i] = climber.share();
    }
    return shares;
  }

  @Test
  void climbsTowardTheShareWithTheBestHitRatio() {
    WindowClimber climber = new WindowClimber(0.01, 0.8);
    assertEquals(0.01, climber.share(), 1e-9, "starts at the lower bound");
    double[] shares = climb(climber, share -> 0.9 - Math.abs(share - 0.4), 300);
    assertEquals(0.4, shares[shares.length - 1], 0.08, "settles near the best share");
  }

  @Test
  void staysWithinItsBoundsWhateverTheSignal() {
    WindowClimber up = new WindowClimber(0.05, 0.3);
    for (double share : climb(up, share -> share, 200)) { // more window, more hits: pushes against the top
      assertTrue(share >= 0.05 && share <= 0.3, "share " + share);
    }
    assertEquals(0.3, up.share(), 0.07, "ends at or near the upper bound");
    WindowClimber down = new WindowClimber(0.05, 0.3);
    for (double share : climb(down, share -> 1 - share, 200)) {
      assertTrue(share >= 0.05 && share <= 0.3, "share " + share);
    }
    assertEquals(0.05, down.share(), 0.07, "ends at or near the lower bound");
  }

  @Test
  void reversesWhenTheHitRatioDrops() {
    WindowClimber climber = new WindowClimber(0.0, 0.9);
    long hits = 0;
    long requests = 0;
    climber.sample(hits, requests, PERIOD);
    double[] ratios = {0.50, 0.52, 0.51}; // better, then worse
    double[] shares = new double[ratios.length];
    for (int i = 0; i < ratios.length; i++) {
      hits += Math.round(ratios[i] * PERIOD);
      requests += PERIOD;
      climber.sample(hits, requests, PERIOD);
      shares[i] = climber.share();
    }
    assertTrue(shares[1] > shares[0], "a better sample keeps the direction: " + shares[0] + " -> " + shares[1]);
    assertTrue(shares[2] < shares[1], "a worse sample reverses it: " + shares[1] + " -> " + shares[2]);
    assertTrue(shares[1] - shares[2] < WindowClimber.INITIAL_STEP, "and the step has shrunk");
  }

  @Test
  void theFirstSampleStartsAtTheFirstCallAndEachWaitsForAFullPeriod() {
    WindowClimber climber = new WindowClimber(0.01, 0.8);
    long fillHits = 1_000;
    long fillRequests = 50_000; // the fill's requests: not part of any sample
    assertFalse(climber.sample(fillHits, fillRequests, PERIOD), "the first call only starts a sample");
    assertFalse(climber.sample(fillHits + PERIOD - 2, fillRequests + PERIOD - 1, PERIOD));
    assertEquals(0.01, climber.share(), 1e-9);
    assertTrue(climber.sample(fillHits + PERIOD - 1, fillRequests + PERIOD, PERIOD));
    assertTrue(climber.share() > 0.01);
  }

  @Test
  void growingTowardRecencyEndsTheSampleAndStepsUpToTheBound() {
    WindowClimber climber = new WindowClimber(0.01, 0.2);
    climber.growTowardRecency(0, 0);
    assertEquals(0.01, climber.share(), 1e-9, "the first call only starts the sample");
    climber.growTowardRecency(100, 1000);
    double grown = 0.01 + WindowClimber.INITIAL_STEP;
    assertEquals(grown, climber.share(), 1e-9);
    // The partial sample's hit ratio (0.1) is what the next full sample is compared with: a rise keeps going up.
    assertFalse(climber.sample(150, 1500, PERIOD), "a new sample started at the growth");
    assertTrue(climber.sample(100 + PERIOD / 2, 1000 + PERIOD, PERIOD));
    assertTrue(climber.share() > grown, climber.toString());
    for (int i = 1; i <= 5; i++) {
      climber.growTowardRecency(PERIOD + 1000L * i, 2 * PERIOD + 1000L * i);
    }
    assertEquals(0.2, climber.share(), 1e-9, "never past the upper bound");
  }

  @Test
  void aMoveEndsTheSampleWithinTheBoundsAndTheClimbGoesOnFromThereWithAQuarterStep() {
    WindowClimber climber = new WindowClimber(0.01, 0.8);
    climber.moveTo(0.5, 0, 0);
    assertEquals(0.5, climber.share(), 1e-9, "a move before the first sample also starts it");
    assertTrue(climber.sampleDue(PERIOD, PERIOD));
    climber.moveTo(0.95, 100, 1000);
    assertEquals(0.8, climber.share(), 1e-9, "never past the upper bound");
    assertFalse(climber.sampleDue(999 + PERIOD, PERIOD), "the move started a new sample");
    // The partial sample's hit ratio (0.1) is what the next is compared with: a fall turns the climb back down, by
    // a quarter of the full step.
    assertTrue(climber.sample(100 + PERIOD * 8 / 100, 1000 + PERIOD, PERIOD));
    assertEquals(0.8 - WindowClimber.INITIAL_STEP / 4, climber.share(), 1e-9, climber.toString());
  }

  @Test
  void aSampleIsDueOncePeriodRequestsHavePassedSinceItStarted() {
    WindowClimber climber = new WindowClimber(0.01, 0.8);
    assertFalse(climber.sampleDue(10 * PERIOD, PERIOD), "no sample has started");
    climber.sample(0, 100, PERIOD);
    assertFalse(climber.sampleDue(99 + PERIOD, PERIOD));
    assertTrue(climber.sampleDue(100 + PERIOD, PERIOD));
    climber.growTowardRecency(10, 100 + PERIOD);
    assertFalse(climber.sampleDue(100 + PERIOD, PERIOD), "growing ended that sample and started the next");
  }

  @Test
  void aFixedRangeFixesTheShare() {
    WindowClimber climber = new WindowClimber(0.2, 0.2);
    Random noise = new Random(42);
    for (double share : climb(climber, share -> noise.nextDouble(), 50)) {
      assertEquals(0.2, share, 1e-9);
    }
  }

  @Test
  void refusesBoundsOutOfOrder() {
    assertThrows(IllegalArgumentException.class, () -> new WindowClimber(0.5, 0.4));
    assertThrows(IllegalArgumentException.class, () -> new WindowClimber(-0.1, 0.4));
    assertThrows(IllegalArgumentException.class, () -> new WindowClimber(0.1, 1.1));
  }
}
