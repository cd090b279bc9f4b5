package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A whole cache built on sizes that do not divide HBase's bucket (65 and 97 KiB, 4 x 97 KiB = 388 KiB, which fits 5
 * items of 65 KiB): a read-through workload of 64 KiB blocks keeps more of them than HBase's geometry can hold at
 * all, so the engine, the allocator and the eviction policy all use the larger bucket.
 */
class BucketGeometryTest {
  private static final int[] SIZES = {66560, 99328};
  private static final long CAPACITY = 32L << 20;
  /** HBase's geometry: 84 buckets of 388 KiB, 5 items of 65 KiB each. */
  private static final int HBASE_MOST_BLOCKS = 84 * 5;
  private static final int BLOCK = 64 * 1024;
  private static final int KEYS = 2000;

  @Test
  void aReadThroughCacheHoldsMoreBlocksThanHBasesBucketsCan() {
    BucketCacheConfig config = BucketCacheConfig.builder("heap", CAPACITY).bucketSizes(SIZES).writerInline(true)
        .build();
    assertEquals(6 * 65 * 1024, config.bucketCapacity());
    try (BucketCache cache = BucketCaches.create(config)) {
      SplittableRandom random = new SplittableRandom(7);
      ReadOptions read = ReadOptions.of(BlockCategory.DATA);
      for (int i = 0; i < 6 * KEYS; i++) {
        BlockKey key = BlockKey.of("hfile", (long) random.nextInt(KEYS) * BLOCK);
        ByteBuf hit = cache.getBlock(key, read);
        if (hit != null) {
          hit.release();
          continue;
        }
        ByteBuf block = Blocks.payload(key, BLOCK);
        try {
          cache.cacheBlock(key, block, CacheOptions.of(BlockCategory.DATA));
        } finally {
          block.release();
        }
      }
      long blocks = cache.blockCount();
      assertTrue(blocks >= 0.97 * 84 * 6, blocks + " blocks cached of 504 slots");
      assertTrue(blocks > HBASE_MOST_BLOCKS, blocks + " blocks cached, HBase's buckets hold at most 420");
    }
  }
}
