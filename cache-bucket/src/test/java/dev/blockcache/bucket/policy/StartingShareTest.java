package dev.blockcache.bucket.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.index.AccessSamples;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The starting share on synthetic fills of a cache whose trials replay {@value #REPLAYED} keys (every key sampled):
 * its miniatures hold three quarters as many.
 */
class StartingShareTest {
  private static final int REPLAYED = 400;
  private static final double LOWER = 0.01;
  private static final double UPPER = 0.9;

  private final AccessSamples samples = new AccessSamples();
  private final StartingShare start = new StartingShare(samples, WindowTrials.sharesBetween(LOWER, UPPER));

  StartingShareTest() {
    samples.setRate(AccessSamples.RATE_SCALE);
  }

  @Test
  void aFillWhereRecencyWinsStartsTheWindowLarge() {
    ShiftingWorkingSets workload = new ShiftingWorkingSets(150, 1_500, 3);
    for (int i = 0; i < 12_000; i++) {
      start.record(workload.next());
    }
    assertTrue(start.heapBytes() > 0);
    double share = start.choose(REPLAYED);
    assertTrue(share >= 0.5, "each new set is kept at once by a large window: " + share);
    assertEquals(0, start.heapBytes(), "the recorded lookups are dropped with the choice");
    assertTrue(Double.isNaN(start.choose(REPLAYED)), "chosen once");
  }

  @Test
  void aFillOfDistinctKeysLeavesTheWindowAtTheLowerBound() {
    for (int key = 1; key <= 10_000; key++) {
      start.record(key);
    }
    assertTrue(Double.isNaN(start.choose(REPLAYED)), "every miniature missed every lookup");
  }

  @Test
  void aLoopLongerThanTheMiniaturesLeavesTheWindowAtTheLowerBound() {
    for (int i = 0; i < 12_000; i++) {
      start.record(1 + i % 500);
    }
    assertTrue(Double.isNaN(start.choose(REPLAYED)), "a large window is an LRU, which a loop flushes");
  }

  @Test
  void aStablePopularSetWithScansLeavesTheWindowAtTheLowerBound() {
    long scanKey = 1_000_000;
    for (int i = 0; i < 12_000; i++) {
      start.record(i % 2 == 0 ? 1 + (i / 2) % 150 : scanKey++); // 150 hot keys between reads of unseen ones
    }
    assertTrue(Double.isNaN(start.choose(REPLAYED)), "the frequency test keeps the hot set from the scan");
  }

  @Test
  void sharesThatHitAlikeWithinNoiseLeaveTheWindowAtTheLowerBound() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 12_000; i++) {
      start.record(1 + random.nextInt(REPLAYED)); // every key as likely: any share holds three quarters of them
    }
    assertTrue(Double.isNaN(start.choose(REPLAYED)), "no share leads by more than its noise");
  }

  @Test
  void aFillTooShortToFillTheMiniaturesChoosesNothing() {
    ShiftingWorkingSets workload = new ShiftingWorkingSets(150, 150, 3); // each set read about once
    for (int i = 0; i < REPLAYED / 2; i++) {
      start.record(workload.next());
    }
    assertTrue(Double.isNaN(start.choose(REPLAYED)), "nothing counted: fewer keys than the miniatures hold");
  }

  @Test
  void lookupsRecordedAtAnotherSamplingRateAreDropped() {
    ShiftingWorkingSets workload = new ShiftingWorkingSets(150, 1_500, 3);
    for (int i = 0; i < 12_000; i++) {
      start.record(workload.next());
    }
    samples.setRate(AccessSamples.RATE_SCALE / 2);
    assertTrue(Double.isNaN(start.choose(REPLAYED)), "the trials' keys are sampled at the new rate");
  }
}
