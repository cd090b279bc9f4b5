package dev.blockcache.bucket.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.index.FrequencySketch;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WindowTrialTest {
  @Test
  void aTrialWhoseWindowIsTheWholeCacheHitsExactlyAsLru() {
    int capacity = 100;
    WindowTrial trial = new WindowTrial(1.0, capacity);
    RecencyShadow lru = new RecencyShadow(capacity);
    FrequencySketch sketch = new FrequencySketch(capacity);
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 50_000; i++) {
      int key = random.nextInt(random.nextBoolean() ? 120 : 1_000);
      sketch.increment(key);
      assertEquals(lru.access(key), trial.access(key, sketch), "lookup " + i + " of key " + key);
    }
  }

  @Test
  void aTrialNeverHoldsMoreThanItsCapacityAndFillsToIt() {
    int capacity = 64;
    for (double share : new double[] {0.0, 0.01, 0.2, 0.8}) {
      WindowTrial trial = new WindowTrial(share, capacity);
      FrequencySketch sketch = new FrequencySketch(capacity);
      SplittableRandom random = new SplittableRandom(11);
      for (int i = 0; i < 20_000; i++) {
        int key = random.nextInt(500);
        sketch.increment(key);
        trial.access(key, sketch);
        assertTrue(trial.size() <= capacity, "share " + share + ": " + trial);
      }
      assertEquals(capacity, trial.size(), "share " + share);
    }
  }

  @Test
  void aLoopLongerThanTheCacheKeepsItsFirstBlocksUnderASmallWindow() {
    int capacity = 100;
    WindowTrial small = new WindowTrial(0.01, capacity);
    RecencyShadow lru = new RecencyShadow(capacity);
    FrequencySketch sketch = new FrequencySketch(capacity);
    long trialHits = 0;
    long lruHits = 0;
    for (int round = 0; round < 50; round++) {
      for (int key = 0; key < 150; key++) {
        sketch.increment(key);
        trialHits += small.access(key, sketch) ? 1 : 0;
        lruHits += lru.access(key) ? 1 : 0;
      }
    }
    assertEquals(0, lruHits, "a loop of 150 over 100 entries: LRU never hits");
    assertTrue(trialHits > 50L * 150 / 3, "the frequency test keeps a share of the loop: " + trialHits);
  }

  @Test
  void refusesACapacityItsLinksCannotNumberAndASharePastTheCache() {
    WindowTrial largest = new WindowTrial(0.5, WindowTrial.MAX_NODES - 2);
    FrequencySketch sketch = new FrequencySketch(largest.capacity());
    for (int key = 0; key < 2 * WindowTrial.MAX_NODES; key++) {
      sketch.increment(key);
      largest.access(key, sketch);
    }
    assertEquals(largest.capacity(), largest.size(), "every node number in use: " + largest);
    assertThrows(IllegalArgumentException.class, () -> new WindowTrial(0.5, WindowTrial.MAX_NODES - 1));
    assertThrows(IllegalArgumentException.class, () -> new WindowTrial(0.5, 0));
    assertThrows(IllegalArgumentException.class, () -> new WindowTrial(1.5, 100));
  }
}
