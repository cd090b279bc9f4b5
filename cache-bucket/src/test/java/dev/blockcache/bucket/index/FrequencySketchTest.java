package dev.blockcache.bucket.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FrequencySketchTest {
  private static final long KEY = 0x1234_5678_9abc_def1L;

  @Test
  void countsAccessesUpToTheCap() {
    FrequencySketch sketch = new FrequencySketch(1024);
    assertEquals(0, sketch.frequency(KEY));
    for (int i = 1; i <= 20; i++) {
      sketch.increment(KEY);
      assertEquals(Math.min(i, FrequencySketch.MAX_COUNT), sketch.frequency(KEY));
    }
  }

  @Test
  void agingHalvesEveryCounter() {
    FrequencySketch sketch = new FrequencySketch(64);
    for (int i = 0; i < 10; i++) {
      sketch.increment(KEY);
    }
    // Counted increments of other keys until the aging counter fills: then everything is halved.
    long sample = sketch.capacity() * FrequencySketch.SAMPLE_PER_ENTRY;
    long other = 1;
    for (long counted = 10; counted < 4 * sample; other++) { // sampled aging: on average after `sample`
      int before = sketch.frequency(other * 0x9E37_79B9_7F4A_7C15L);
      sketch.increment(other * 0x9E37_79B9_7F4A_7C15L);
      if (sketch.frequency(other * 0x9E37_79B9_7F4A_7C15L) != before) {
        counted++;
      }
      if (sketch.frequency(KEY) < 10) {
        break; // halved
      }
    }
    assertTrue(sketch.frequency(KEY) <= 5 + 1, "after aging: " + sketch.frequency(KEY));
  }

  @Test
  void distinctKeysRankedByTheirAccessesDespiteASmallTable() {
    FrequencySketch sketch = new FrequencySketch(10_000); // above the floor: 4 counters per entry
    for (long k = 0; k < 10_000; k++) {
      for (int i = 0; i < (k % 4); i++) {
        sketch.increment(k * 0x9E37_79B9_7F4A_7C15L);
      }
    }
    int wrongOrder = 0;
    for (long k = 0; k < 10_000; k += 4) {
      if (sketch.frequency(k * 0x9E37_79B9_7F4A_7C15L) >= sketch.frequency((k + 3) * 0x9E37_79B9_7F4A_7C15L)) {
        wrongOrder++;
      }
    }
    assertTrue(wrongOrder < 100, wrongOrder + " of 2,500 never-read keys estimated at least as hot as thrice-read ones");
  }

  @Test
  void growsForMoreEntriesAndNeverShrinks() {
    FrequencySketch sketch = new FrequencySketch(100);
    long capacity = sketch.capacity();
    sketch.ensureCapacity(50);
    assertEquals(capacity, sketch.capacity());
    assertEquals(FrequencySketch.MIN_WORDS * 8L, sketch.heapBytes(), "a small cache gets the floor's counters");
    sketch.ensureCapacity(10_000);
    assertEquals(11_250, sketch.capacity());
    assertEquals((11_250L * FrequencySketch.COUNTERS_PER_ENTRY + 15) / 16 * 8, sketch.heapBytes());
  }

  /** Regression: growing within the floor's words replaced the table and reset every count, after the cache filled. */
  @Test
  void growthWithinTheFloorsWordsKeepsTheCounts() {
    FrequencySketch sketch = new FrequencySketch(1024);
    for (int i = 0; i < 5; i++) {
      sketch.increment(KEY);
    }
    long heap = sketch.heapBytes();
    sketch.ensureCapacity(3_000); // 3,375 entries: still the floor's words
    assertEquals(3_375, sketch.capacity());
    assertEquals(heap, sketch.heapBytes());
    assertEquals(5, sketch.frequency(KEY), "counts kept across growth");
    sketch.increment(KEY);
    assertEquals(6, sketch.frequency(KEY), "the grown sketch counts in the same counters");
  }

  /** Regression: with a floor of 1,024 words a cache growing to 5,000 blocks lost its counts after it had filled. */
  @Test
  void aCacheOfAFewThousandBlocksKeepsItsCountsWhileItGrows() {
    FrequencySketch sketch = new FrequencySketch(1024);
    for (int i = 0; i < 5; i++) {
      sketch.increment(KEY);
    }
    sketch.ensureCapacity(5_000);
    assertEquals(FrequencySketch.MIN_WORDS * 8L, sketch.heapBytes(), "5,625 entries: still the floor's words");
    assertEquals(5, sketch.frequency(KEY));
  }

  @Test
  void growthToMoreWordsStartsFromEmptyCounts() {
    FrequencySketch sketch = new FrequencySketch(1024);
    for (int i = 0; i < 5; i++) {
      sketch.increment(KEY);
    }
    sketch.ensureCapacity(10_000);
    assertTrue(sketch.heapBytes() > FrequencySketch.MIN_WORDS * 8L);
    assertEquals(0, sketch.frequency(KEY), "keys cannot be rehashed into a larger table");
  }
}
