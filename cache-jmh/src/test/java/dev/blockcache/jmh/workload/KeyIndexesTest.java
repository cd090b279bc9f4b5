package dev.blockcache.jmh.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KeyIndexesTest {
  @Test
  void sequencesAreDeterministicAndInRange() {
    for (KeyDistribution d : KeyDistribution.values()) {
      int[] a = d.sequence(1000, 7);
      assertEquals(KeyIndexes.LENGTH, a.length);
      assertArrayEquals(a, d.sequence(1000, 7), d.name());
      for (int i : a) {
        assertTrue(i >= 0 && i < 1000, d + " produced " + i);
      }
    }
  }

  @Test
  void zipfHottestKeyHasItsExpectedShare() {
    int keys = 10_000;
    int[] counts = new int[keys];
    for (int i : KeyIndexes.zipf(keys, 0.99, 11)) {
      counts[i]++;
    }
    double norm = 0;
    for (int r = 1; r <= keys; r++) {
      norm += 1 / Math.pow(r, 0.99);
    }
    int max = 0;
    for (int c : counts) {
      max = Math.max(max, c);
    }
    double expected = KeyIndexes.LENGTH / norm; // rank 1's share, ~10% for 10k keys
    assertEquals(expected, max, expected * 0.05);
  }
}
