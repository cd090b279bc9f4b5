package dev.blockcache.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.hbase.testing.BytesCacheable;
import dev.blockcache.hbase.testing.TestBlocks;
import dev.blockcache.hbase.testing.TestCaches;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HBaseL2Cache#blockFitsIntoTheCache}, which HBase's prefetch asks before each block so that it stops instead
 * of evicting: the answer is whether the block's size class has a free item or a free bucket is left, not a byte
 * count. Two size classes (5 KiB and 65 KiB items): once small blocks have taken every bucket, a small block still
 * fits (its class has free items after eviction) while a 64 KiB block does not, though free bytes remain.
 */
class BlockFitsIntoTheCacheTest {
  private static final int SMALL = 3000;
  private static final int LARGE = 60_000;

  private HBaseL2Cache cache;

  @AfterEach
  void tearDown() {
    if (cache != null) {
      cache.shutdown();
    }
  }

  @Test
  void aBlockFitsWhileItsSizeClassHasAFreeItemOrABucketIsFree() throws IOException {
    Configuration conf = TestCaches.conf("offheap", 4);
    conf.set("hbase.bucketcache.bucket.sizes", "5120,66560");
    cache = TestCaches.ours(conf);
    HFileBlock small = TestBlocks.heap("file-s", 0, SMALL);
    HFileBlock large = TestBlocks.heap("file-s", 1 << 20, LARGE);
    try {
      assertEquals(Optional.of(true), cache.blockFitsIntoTheCache(small));
      assertEquals(Optional.of(true), cache.blockFitsIntoTheCache(large), "an empty cache has free buckets");

      long offered = 0;
      while (cache.blockFitsIntoTheCache(large).orElseThrow() && offered < 100_000) {
        for (int i = 0; i < 50; i++, offered++) {
          cache.cacheBlock(new BlockCacheKey("file-t", offered * SMALL), new BytesCacheable(new byte[SMALL]));
        }
        TestCaches.drain(cache);
      }
      assertEquals(Optional.of(false), cache.blockFitsIntoTheCache(large),
          "no free bucket left for the 64 KiB class after " + offered + " small blocks");
      assertTrue(cache.getFreeSize() > LARGE, "free bytes remain: a byte count would have said it fits");
      assertEquals(Optional.of(true), cache.blockFitsIntoTheCache(small), "the small class keeps free items");
    } finally {
      small.release();
      large.release();
    }
  }

  @Test
  void aBlockLargerThanTheLargestItemNeverFits() throws IOException {
    Configuration conf = TestCaches.conf("offheap", 4);
    conf.set("hbase.bucketcache.bucket.sizes", "5120,66560");
    cache = TestCaches.ours(conf);
    HFileBlock huge = TestBlocks.heap("file-h", 0, 70_000);
    try {
      assertEquals(Optional.of(false), cache.blockFitsIntoTheCache(huge));
    } finally {
      huge.release();
    }
  }
}
