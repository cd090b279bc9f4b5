package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pins that a key whose file name does not fit a slot header (more than 65,535 bytes of UTF-8) is refused by
 * {@code cacheBlock} with {@link CacheResult#TOO_LARGE} — it used to throw {@link IllegalArgumentException} — and
 * that gets and evictions of it simply miss, on every engine and with inline writes.
 */
class LongFileNameTest {
  @TempDir
  Path dir;

  private BucketCache cache(String kind) {
    return switch (kind) {
      case "inline" -> BucketCaches.create(BucketCaches.config("heap", 8L << 20).writerInline(true).build());
      case "file" -> BucketCaches.create(BucketCaches.config("file:" + dir.resolve("c.bin"), 8L << 20).build());
      default -> BucketCaches.create(BucketCaches.config(kind, 8L << 20).build());
    };
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "offheap", "inline", "file"})
  void aFileNameOverTheHeaderLimitIsRefusedNotThrown(String kind) {
    try (BucketCache cache = cache(kind)) {
      BlockKey ascii = BlockKey.of("a".repeat(70_000), 0);
      BlockKey euros = BlockKey.of("\u20ac".repeat(30_000), 0); // 90,000 bytes of UTF-8 in 30,000 chars
      BlockKey longest = BlockKey.of("b".repeat(65_535), 0);
      for (BlockKey key : new BlockKey[] {ascii, euros}) {
        ByteBuf block = Blocks.payload(key, 1000);
        try {
          assertEquals(CacheResult.TOO_LARGE, cache.cacheBlock(key, block, CacheOptions.of(BlockCategory.DATA)));
        } finally {
          block.release();
        }
        BucketCaches.drain(cache);
        assertNull(cache.getBlock(key, ReadOptions.of(BlockCategory.DATA)));
        assertFalse(cache.evictBlock(key));
      }
      ByteBuf block = Blocks.payload(longest, 1000);
      try {
        assertEquals(CacheResult.CACHED, cache.cacheBlock(longest, block, CacheOptions.of(BlockCategory.DATA)));
      } finally {
        block.release();
      }
    }
  }
}
