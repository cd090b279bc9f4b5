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
    readKeyTenTimesThenOthers(sketch, 4 * sketch.capacity() * FrequencySketch.SAMPLE_PER_ENTRY);
    assertTrue(sketch.frequency(KEY) <= 5 + 1, "after aging: " + sketch.frequency(KEY));
  }

  /** Regression: a sketch laid out for an engine's thousand entries aged a cache of a hundred over its thousand. */
  @Test
  void agingFollowsTheEntriesCachedNotTheEntriesExpected() {
    FrequencySketch small = new FrequencySketch(100_000);
    assertEquals(FrequencySketch.MIN_HISTORY_ENTRIES, small.capacity());
    long history = 4L * FrequencySketch.MIN_HISTORY_ENTRIES * FrequencySketch.SAMPLE_PER_ENTRY;
    readKeyTenTimesThenOthers(small, history);
    assertTrue(small.frequency(KEY) <= 5 + 1, "a cache of few entries ages early: " + small.frequency(KEY));

    FrequencySketch full = new FrequencySketch(100_000);
    full.ensureCapacity(100_000);
    readKeyTenTimesThenOthers(full, history);
    assertEquals(10, full.frequency(KEY), "a full cache keeps a history of its own entries");
  }

  @Test
  void growingToTheExpectedEntriesKeepsTheCounts() {
    FrequencySketch sketch = new FrequencySketch(100_000);
    long heap = sketch.heapBytes();
    assertEquals((100_000L * FrequencySketch.COUNTERS_PER_ENTRY + 15) / 16 * 8, heap, "laid out for the expected");
    for (int i = 0; i < 5; i++) {
      sketch.increment(KEY);
    }
    sketch.ensureCapacity(50_000);
    assertEquals(56_250, sketch.capacity());
    assertEquals(heap, sketch.heapBytes());
    assertEquals(5, sketch.frequency(KEY), "counts kept: the words already covered the entries");
  }

  @Test
  void aSmallCacheCanAgeOverItsOwnEntriesAndBackKeepingItsCounts() {
    FrequencySketch sketch = new FrequencySketch(64);
    sketch.ensureCapacity(64);
    assertEquals(FrequencySketch.MIN_HISTORY_ENTRIES, sketch.capacity());
    for (int i = 0; i < 5; i++) {
      sketch.increment(KEY);
    }
    sketch.setMinimumHistory(0);
    assertEquals(72, sketch.capacity(), "its entries × 9/8");
    assertEquals(5, sketch.frequency(KEY), "counts kept");
    sketch.setMinimumHistory(FrequencySketch.MIN_HISTORY_ENTRIES);
    assertEquals(FrequencySketch.MIN_HISTORY_ENTRIES, sketch.capacity());
    assertEquals(5, sketch.frequency(KEY));
  }

  @Test
  void theShorterHistoryAgesSoonerButNotAtOnce() {
    FrequencySketch sketch = new FrequencySketch(64);
    sketch.ensureCapacity(64);
    // half the long period: a period of 72 entries counted from its start would be long over
    readKeyTenTimesThenOthers(sketch, FrequencySketch.MIN_HISTORY_ENTRIES * FrequencySketch.SAMPLE_PER_ENTRY / 2);
    assertEquals(10, sketch.frequency(KEY), "not halved within the long period");
    sketch.setMinimumHistory(0);
    assertEquals(10, readOthers(sketch, 100, 1_000_000), "the place in the period is kept as a fraction of it");
    int aged = readOthers(sketch, 4 * 72 * FrequencySketch.SAMPLE_PER_ENTRY, 2_000_000);
    assertTrue(aged <= 5, "halved within a few periods of its own entries: " + aged);
  }

  /**
   * Reads {@code keys} keys other than {@link #KEY} once each, numbered from {@code first}, and returns the key's count
   * then.
   */
  private static int readOthers(FrequencySketch sketch, int keys, long first) {
    for (long other = first; other < first + keys; other++) {
      sketch.increment(other * 0x9E37_79B9_7F4A_7C15L);
    }
    return sketch.frequency(KEY);
  }

  /**
   * Reads {@link #KEY} ten times, then other keys one counted increment each until {@code counted} have been made
   * (sampled aging halves on average after {@code capacity × SAMPLE_PER_ENTRY}) or the key's count was halved.
   */
  private static void readKeyTenTimesThenOthers(FrequencySketch sketch, long counted) {
    for (int i = 0; i < 10; i++) {
      sketch.increment(KEY);
    }
    long n = 0;
    for (long other = 1; n < counted && sketch.frequency(KEY) == 10; other++) {
      long key = other * 0x9E37_79B9_7F4A_7C15L;
      int before = sketch.frequency(key);
      sketch.increment(key);
      if (sketch.frequency(key) != before) {
        n++;
      }
    }
  }

  @Test
  void distinctKeysRankedByTheirAccessesDespiteASmallTable() {
    FrequencySketch sketch = new FrequencySketch(40_000); // above the floor: 4 counters per entry
    sketch.ensureCapacity(40_000); // a full cache: no aging within these increments
    for (long k = 0; k < 40_000; k++) {
      for (int i = 0; i < (k % 4); i++) {
        sketch.increment(k * 0x9E37_79B9_7F4A_7C15L);
      }
    }
    int wrongOrder = 0;
    for (long k = 0; k < 40_000; k += 4) {
      if (sketch.frequency(k * 0x9E37_79B9_7F4A_7C15L) >= sketch.frequency((k + 3) * 0x9E37_79B9_7F4A_7C15L)) {
        wrongOrder++;
      }
    }
    assertTrue(wrongOrder < 400, wrongOrder + " of 10,000 never-read keys estimated as hot as thrice-read ones");
  }

  /**
   * A small cache's aging period counts many more keys than it holds, most of them read once: the floor's counters
   * keep those from raising the estimates of each other to a reused block's.
   */
  @Test
  void aSmallCacheTellsReusedKeysFromManyReadOnce() {
    FrequencySketch sketch = new FrequencySketch(2_500);
    sketch.ensureCapacity(2_500); // an aging period of 28,120 counted increments: none within these
    for (long k = 0; k < 20_000; k++) {
      sketch.increment(k * 0x9E37_79B9_7F4A_7C15L); // read once
    }
    for (int i = 0; i < 3; i++) {
      for (long k = 20_000; k < 21_000; k++) {
        sketch.increment(k * 0x9E37_79B9_7F4A_7C15L); // reused: read three times
      }
    }
    int asHot = 0;
    for (long k = 0; k < 20_000; k++) {
      if (sketch.frequency(k * 0x9E37_79B9_7F4A_7C15L) >= 3) {
        asHot++;
      }
    }
    assertTrue(asHot < 200, asHot + " of 20,000 keys read once estimated as hot as keys read three times");
  }

  @Test
  void growsForMoreEntriesAndNeverShrinks() {
    FrequencySketch sketch = new FrequencySketch(100);
    long capacity = sketch.capacity();
    sketch.ensureCapacity(50);
    assertEquals(capacity, sketch.capacity());
    assertEquals(FrequencySketch.MIN_WORDS * 8L, sketch.heapBytes(), "a small cache gets the floor's counters");
    sketch.ensureCapacity(40_000);
    assertEquals(45_000, sketch.capacity());
    assertEquals((45_000L * FrequencySketch.COUNTERS_PER_ENTRY + 15) / 16 * 8, sketch.heapBytes());
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
    sketch.ensureCapacity(40_000);
    assertTrue(sketch.heapBytes() > FrequencySketch.MIN_WORDS * 8L);
    assertEquals(0, sketch.frequency(KEY), "keys cannot be rehashed into a larger table");
  }
}
