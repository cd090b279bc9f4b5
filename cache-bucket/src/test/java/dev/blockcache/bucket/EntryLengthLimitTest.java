package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.index.IndexEntry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/**
 * Pins the refusal of a block that, with its slot header, is longer than an index entry records (8 MiB - 1), even
 * when an item size is configured large enough for it: {@link CacheResult#TOO_LARGE}, counted as a failed insertion,
 * and a block of exactly the limit is cached.
 */
class EntryLengthLimitTest {
  /** An item a little over 8 MiB: the allocator would take a block the index cannot record. */
  private static final int ITEM = (8 << 20) + 1024;

  @Test
  void aBlockOverTheEntryLengthIsRefusedAsTooLarge() {
    BucketCacheConfig config = BucketCacheConfig.builder("heap", 4L * ITEM).bucketSizes(ITEM).writerInline(true)
        .build();
    try (BucketCache cache = BucketCaches.create(config)) {
      BlockKey over = BlockKey.of("f", 0);
      int overLength = IndexEntry.MAX_LENGTH - BlockHeader.headerLength(over) + 1;
      assertEquals(CacheResult.TOO_LARGE, put(cache, over, overLength));
      assertEquals(1, cache.stats().failedInsertionCount());
      assertFalse(cache.hasRoomFor(over, overLength), "no room is promised for it either");

      BlockKey limit = BlockKey.of("f", 1);
      int limitLength = IndexEntry.MAX_LENGTH - BlockHeader.headerLength(limit);
      assertTrue(cache.hasRoomFor(limit, limitLength));
      assertEquals(CacheResult.CACHED, put(cache, limit, limitLength));
      ByteBuf hit = cache.getBlock(limit, ReadOptions.of(BlockCategory.DATA));
      assertNotNull(hit);
      try {
        assertEquals(limitLength, hit.readableBytes());
      } finally {
        hit.release();
      }
    }
  }

  private static CacheResult put(BucketCache cache, BlockKey key, int length) {
    ByteBuf block = Unpooled.wrappedBuffer(new byte[length]);
    try {
      return cache.cacheBlock(key, block, CacheOptions.of(BlockCategory.DATA));
    } finally {
      block.release();
    }
  }
}
