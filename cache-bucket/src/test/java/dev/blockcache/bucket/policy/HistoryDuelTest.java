package dev.blockcache.bucket.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.index.AccessSamples;
import dev.blockcache.bucket.index.FrequencySketch;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The history duel on synthetic lookups of a cache of {@value #BLOCKS} blocks, replayed whole (every key sampled),
 * with the window at the lower bound, fed one scoring period at a time as the steering feeds it.
 */
class HistoryDuelTest {
  private static final int BLOCKS = 100;
  private static final double SHARE = 0.01;
  private static final WindowTrials.RecentKeys NO_KEYS = sink -> { };

  private final AccessSamples samples = new AccessSamples();
  private final HistoryDuel duel = new HistoryDuel(samples, NO_KEYS);

  HistoryDuelTest() {
    samples.setRate(AccessSamples.RATE_SCALE);
  }

  private void feed(int blocks, LongSupplier workload, int periods) {
    for (int p = 0; p < periods; p++) {
      duel.update(blocks, SHARE);
      for (int i = 0; i < WindowTrials.PERIOD; i++) {
        duel.accept(workload.getAsLong(), false);
      }
    }
  }

  /** A loop over {@code length} keys, from key {@code first}. */
  private static LongSupplier loop(long first, int length) {
    long[] next = {0};
    return () -> first + next[0]++ % length;
  }

  @Test
  void hotSetsThatGoColdWinTheShorterHistory() {
    ShiftingWorkingSets sets = new ShiftingWorkingSets(BLOCKS * 3 / 4, 4_000, 5);
    feed(BLOCKS, sets::next, 40);
    assertEquals(0, duel.minimumHistory(), "a set read for a few thousand lookups keeps its counts too long: " + duel);
    assertTrue(duel.heapBytes() > 0);
  }

  @Test
  void aLoopLongerThanTheCacheKeepsTheLongerHistory() {
    feed(BLOCKS, loop(1, 2_000), 60);
    assertEquals(FrequencySketch.MIN_HISTORY_ENTRIES, duel.minimumHistory(),
        "the shorter history forgets the loop's blocks before they come round: " + duel);
  }

  @Test
  void theLongerHistoryComesBackWhenItWinsAgain() {
    ShiftingWorkingSets sets = new ShiftingWorkingSets(BLOCKS * 3 / 4, 4_000, 5);
    feed(BLOCKS, sets::next, 40);
    assertEquals(0, duel.minimumHistory());
    feed(BLOCKS, loop(10_000_000, 2_000), 200);
    assertEquals(FrequencySketch.MIN_HISTORY_ENTRIES, duel.minimumHistory(), duel.toString());
  }

  @Test
  void aCacheWhoseEntriesSpanTheMinimumHistoryRunsNoDuel() {
    int blocks = FrequencySketch.MIN_HISTORY_ENTRIES; // × 9/8 is beyond the minimum
    feed(blocks, new ShiftingWorkingSets(blocks * 3 / 4, 20_000, 5)::next, 40);
    assertEquals(FrequencySketch.MIN_HISTORY_ENTRIES, duel.minimumHistory());
    assertEquals(0, duel.heapBytes(), "no miniatures kept");
  }
}
