package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.config.L2Policy;
import org.junit.jupiter.api.Test;

/**
 * The hbase policy's global pass compares priority sizes with their targets in one unit. Blocks here fill about half
 * of their 2 KiB item; the allocator counts items, the index stored bytes. Comparing the two (as the pass once did)
 * found every priority under its target, planned nothing, and left the size-class fallback to evict single-access
 * blocks only; in one unit the multi-access blocks, far above their 50% share, give their part.
 */
class HBasePolicyUnitsTest {
  @Test
  void theGlobalPassEvictsMultiAccessBlocksAboveTheirShareWhenBlocksHalfFillTheirItems() {
    try (BucketCache cache = FrequencyAdmissionTest.cache(L2Policy.HBASE)) {
      int slots = 32;
      for (int i = 0; i < slots; i++) {
        BlockKey key = BlockKey.of("f", i);
        assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, key));
        if (i % 10 < 7) {
          FrequencyAdmissionTest.read(cache, key, 1); // the first read of a cached block makes it multi-access
        }
      }
      long multiBefore = cache.index().bytes(CachePriority.MULTI);
      long singleBefore = cache.index().bytes(CachePriority.SINGLE);
      assertTrue(multiBefore > 2 * singleBefore, "multi " + multiBefore + ", single " + singleBefore);
      assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, BlockKey.of("g", 0)));
      long multiAfter = cache.index().bytes(CachePriority.MULTI);
      assertTrue(multiAfter < multiBefore, "no multi-access block evicted: " + multiBefore + " -> " + multiAfter);
    }
  }
}
