package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.engine.HeapIoEngine;
import dev.blockcache.bucket.policy.WriteBudget;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@code hbase.bucketcache.admission.max.write.rate}: the bytes an L2 writes per second are bounded at admission. */
class WriteBudgetTest {
  private static final long CAPACITY = 1L << 20;

  @Test
  void aBucketHoldsOneSecondAndRefillsWithTime() {
    AtomicLong clock = new AtomicLong(1_000);
    WriteBudget budget = new WriteBudget(10_000, 2048, clock::get);
    assertTrue(budget.tryTake(6_000));
    assertFalse(budget.tryTake(6_000));
    assertTrue(budget.tryTake(4_000));
    clock.addAndGet(100); // 0.1 s: 1,000 bytes
    assertFalse(budget.tryTake(1_001));
    assertTrue(budget.tryTake(1_000));
    clock.addAndGet(60_000); // a long pause refills one second's worth, not more
    assertTrue(budget.tryTake(10_000));
    assertFalse(budget.tryTake(1));
  }

  @Test
  void aRateBelowTheLargestItemStillLetsEveryBlockThrough() {
    WriteBudget budget = new WriteBudget(100, 4096, () -> 0);
    assertTrue(budget.tryTake(4096));
  }

  @Test
  void blocksOverTheBudgetAreDeclinedCountedAndNotFailures() {
    AtomicLong clock = new AtomicLong();
    BucketCacheConfig config = BucketCaches.config("heap", CAPACITY).bucketSizes(2048).maxWriteRate(10_000).build();
    try (BucketCache cache = new BucketCache(config, new HeapIoEngine(CAPACITY, (int) CAPACITY), clock::get)) {
      int cached = 0;
      CacheResult last = CacheResult.CACHED;
      for (int i = 0; last == CacheResult.CACHED; i++) {
        last = put(cache, BlockKey.of("f", i));
        if (last == CacheResult.CACHED) {
          cached++;
        }
      }
      BucketCaches.drain(cache);
      int stored = 1000 + 24 + 1; // block, fixed header, one-byte file name
      assertEquals(10_000 / stored, cached);
      assertEquals(CacheResult.OVER_WRITE_BUDGET, last);
      assertEquals(1, cache.metrics().overWriteBudgetCount());
      assertEquals(0, cache.stats().failedInsertionCount());
      clock.addAndGet(500);
      assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("g", 0)), "half a second refills half the budget");
    }
  }

  private static CacheResult put(BucketCache cache, BlockKey key) {
    ByteBuf source = Blocks.payload(key, 1000);
    try {
      return cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA));
    } finally {
      source.release();
    }
  }
}
