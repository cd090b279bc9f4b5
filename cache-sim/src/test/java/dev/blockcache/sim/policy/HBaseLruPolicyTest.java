package dev.blockcache.sim.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The model of HBase's LruBlockCache: its pass from the acceptable to the minimum size, and its priorities. */
class HBaseLruPolicyTest {

  /** 100 blocks: the 100th insert passes 99% and frees down to 95%, the 5 oldest single blocks. */
  @Test
  void aPassFreesFromTheAcceptableDownToTheMinimumSize() {
    HBaseLruPolicy cache = new HBaseLruPolicy(100);
    for (int k = 0; k < 100; k++) {
      assertFalse(cache.access(k));
    }
    for (int k = 5; k < 100; k++) {
      assertTrue(cache.access(k), "key " + k);
    }
    for (int k = 0; k < 5; k++) {
      assertFalse(cache.access(k), "key " + k + " went in the pass");
    }
  }

  /**
   * Blocks read twice are multi, whose share (half of the minimum size) a scan of single blocks cannot take: about
   * 48 of the 50 stay, where plain LRU keeps none.
   */
  @Test
  void aScanDoesNotFlushTheMultiBlocks() {
    HBaseLruPolicy cache = new HBaseLruPolicy(100);
    LruPolicy lru = new LruPolicy(100);
    for (int k = 0; k < 50; k++) {
      cache.access(k);
      cache.access(k);
      lru.access(k);
      lru.access(k);
    }
    for (int k = 1000; k < 2000; k++) {
      cache.access(k);
      lru.access(k);
    }
    int kept = 0;
    int keptByLru = 0;
    for (int k = 0; k < 50; k++) {
      kept += cache.access(k) ? 1 : 0;
      keptByLru += lru.access(k) ? 1 : 0;
    }
    assertTrue(kept >= 47, "multi blocks kept: " + kept);
    assertEquals(0, keptByLru);
  }

  @Test
  void refusesAnEmptyCache() {
    assertThrows(IllegalArgumentException.class, () -> new HBaseLruPolicy(0));
  }
}
