package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockKey;
import dev.blockcache.bucket.alloc.AllocatorStats;
import dev.blockcache.bucket.config.L2Policy;
import io.netty.buffer.ByteBuf;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Pins the occupancy of a full cache under a read-through workload: tinylfu keeps it full and evicts at most one block
 * per insert; HBase's policy, kept as it was, drops to its minfactor in bursts.
 */
class FullCacheOccupancyTest {
  private static final int KEYS = 2000;
  private static final int ACCESSES = 20_000;
  private static final int WARM_UP = 2_000;

  /** Least share of slots in use and most evictions by one insert, after warm-up. */
  private record Figures(double minOccupancy, long maxEvictionsPerInsert) { }

  private static Figures replay(L2Policy policy) {
    try (BucketCache cache = FrequencyAdmissionTest.cache(policy)) {
      SplittableRandom random = new SplittableRandom(42);
      double minOccupancy = 1;
      long maxBurst = 0;
      for (int i = 0; i < ACCESSES; i++) {
        // Skewed keys: the square of a uniform draw favours low numbers.
        double u = random.nextDouble();
        BlockKey key = BlockKey.of("f", (long) (u * u * KEYS));
        ByteBuf hit = cache.getBlock(key, FrequencyAdmissionTest.readOptions());
        if (hit != null) {
          hit.release();
          continue;
        }
        long evictedBefore = cache.stats().evictedBlockCount();
        FrequencyAdmissionTest.put(cache, key);
        if (i >= WARM_UP) {
          maxBurst = Math.max(maxBurst, cache.stats().evictedBlockCount() - evictedBefore);
          AllocatorStats a = cache.metrics().allocator();
          double slots = a.sizeClass(0).usedItems() + a.sizeClass(0).freeItems();
          minOccupancy = Math.min(minOccupancy, a.sizeClass(0).usedItems() / slots);
        }
      }
      return new Figures(minOccupancy, maxBurst);
    }
  }

  @Test
  void tinyLfuKeepsAtLeast97PercentOfSlotsInUseAndEvictsOneBlockAtATime() {
    Figures f = replay(L2Policy.TINYLFU);
    assertTrue(f.minOccupancy() >= 0.97, "min occupancy " + f.minOccupancy());
    assertTrue(f.maxEvictionsPerInsert() <= 1, "evictions by one insert: " + f.maxEvictionsPerInsert());
  }

  @Test
  void hbasePolicyFreesDownToItsMinFactorInBursts() {
    Figures f = replay(L2Policy.HBASE);
    assertTrue(f.minOccupancy() < 0.90, "min occupancy " + f.minOccupancy());
    assertTrue(f.maxEvictionsPerInsert() > 1, "evictions by one insert: " + f.maxEvictionsPerInsert());
  }
}
