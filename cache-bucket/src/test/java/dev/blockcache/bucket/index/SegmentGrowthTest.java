package dev.blockcache.bucket.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CachePriority;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * Pins how a segment grows: by 5/4 when its load would pass 4/5, so that a segment that has grown holds between 0.64
 * and 0.8 entries per slot, and its table costs 20 to 25 B per entry. A factor of 3/2 lets the load fall to 0.53
 * (30 B per entry), which the 32 B per cached block budget cannot afford next to the frequency sketch.
 */
class SegmentGrowthTest {
  private static Segment newSegment() {
    LongAdder[] bytes = new LongAdder[CachePriority.COUNT];
    for (int p = 0; p < bytes.length; p++) {
      bytes[p] = new LongAdder();
    }
    return new Segment(new LongAdder(), bytes, new LongAdder());
  }

  /** Spread over the home slots (a home is taken from the low 32 bits); never 0. */
  private static long fingerprint(int i) {
    return i * 0x9E37_79B9_7F4A_7C15L | 1;
  }

  private static long entry(int i) {
    return IndexEntry.pack((long) i * IndexEntry.OFFSET_UNIT, 100, CachePriority.SINGLE, BlockCategory.DATA);
  }

  @Test
  void eachResizeMultipliesTheCapacityByFiveQuarters() {
    Segment segment = newSegment();
    int capacity = segment.capacityForMetrics();
    assertEquals(Segment.MIN_CAPACITY, capacity);
    int resizes = 0;
    for (int i = 1; i <= 20_000; i++) {
      segment.putIfAbsent(fingerprint(i), entry(i));
      int now = segment.capacityForMetrics();
      if (now != capacity) {
        assertEquals(capacity * 5 / 4, now, "resize at entry " + i);
        assertTrue((long) (i - 1) * 5 <= (long) capacity * 4, "grew before its load passed 4/5, at entry " + i);
        assertTrue((long) i * 5 > (long) capacity * 4, "grew only once its load would pass 4/5, at entry " + i);
        capacity = now;
        resizes++;
      }
      assertEquals(SegmentGrowth.capacityAfter(i), now, "the projection's rule is the segment's, at entry " + i);
    }
    assertTrue(resizes > 20, "resizes " + resizes);
  }

  @Test
  void aGrownSegmentHoldsBetweenSixteenAndTwentyEntriesPerTwentyFiveSlots() {
    double lowest = 1;
    for (int n = 64; n <= 1_000_000; n += 7) {
      double load = (double) n / SegmentGrowth.capacityAfter(n);
      assertTrue(load <= 0.8, n + " entries: load " + load);
      lowest = Math.min(lowest, load);
    }
    // 0.64 = 0.8 / (5/4), less the rounding down of small capacities.
    assertTrue(lowest >= 0.62, "lowest load " + lowest);
  }

  @Test
  void aGrownSegmentCostsAtMostTwentySixBytesPerEntry() {
    for (int n = 1_000; n <= 100_000; n += 13) {
      double bytesPerEntry = 16.0 * SegmentGrowth.capacityAfter(n) / n;
      assertTrue(bytesPerEntry <= 26, n + " entries: " + bytesPerEntry + " B each");
    }
  }
}
