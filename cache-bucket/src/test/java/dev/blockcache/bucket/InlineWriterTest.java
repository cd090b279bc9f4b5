package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.config.EngineGeometry;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.engine.IoEngineRegistry;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.config.ConfigException;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hbase.bucketcache.writer.inline}: the block is in its slot when {@code cacheBlock} returns. */
class InlineWriterTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);

  @TempDir Path dir;

  private static CacheResult put(BucketCache cache, BlockKey key, int length) {
    ByteBuf source = Blocks.payload(key, length);
    try {
      CacheResult result = cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA));
      assertEquals(1, source.refCnt(), "cacheBlock changed the caller's reference count");
      assertEquals(0, source.readerIndex(), "cacheBlock moved the caller's reader index");
      return result;
    } finally {
      source.release();
    }
  }

  @Test
  void aBlockIsInItsSlotWhenCacheBlockReturnsWithNoWriterThread() {
    try (BucketCache cache = BucketCaches.create(BucketCaches.config("offheap", 8L << 20).writerInline(true).build())) {
      cache.start();
      BlockKey key = BlockKey.of("f", 0);
      assertEquals(CacheResult.CACHED, put(cache, key, 4000));
      assertTrue(IndexEntry.offset(cache.index().peek(key)) >= 0, "not in the index after cacheBlock");
      assertEquals(0, cache.ramCache().size());
      assertEquals(CacheResult.ALREADY_CACHED, put(cache, key, 4000));
      ByteBuf block = cache.getBlock(key, DATA);
      try {
        Blocks.verify(key, 4000, block);
      } finally {
        block.release();
      }
      assertTrue(Thread.getAllStackTraces().keySet().stream()
          .noneMatch(t -> t.getName().startsWith("bucketcache-") && t.getName().contains("-writer-")),
          "inline mode started writer threads");
    }
  }

  @Test
  void aClosedCacheRefusesInlineWritesAndLeavesNoSlotAllocated() {
    BucketCache cache = BucketCaches.create(BucketCaches.config("heap", 8L << 20).writerInline(true).build());
    cache.close();
    assertEquals(CacheResult.DISABLED, put(cache, BlockKey.of("f", 0), 100));
    assertNull(cache.getBlock(BlockKey.of("f", 0), DATA));
    assertEquals(0, cache.allocator().stats().usedItemBytes());
  }

  @Test
  void aFileEngineRefusesInlineWritesNamingTheKeyBeforeAnyFileIsMade() {
    BucketCacheConfig.Builder config = BucketCaches.config("file:" + dir.resolve("cache.bin"), 8L << 20)
        .writerInline(true);
    ConfigException e = assertThrows(ConfigException.class, () -> BucketCache.create(config.build()));
    assertEquals(BucketCacheKeys.WRITER_INLINE, e.key());
    assertTrue(e.getMessage().contains("file:"), e.getMessage());
    assertTrue(Files.notExists(dir.resolve("cache.bin")));
  }

  @Test
  void aCacheBuiltOnAnEngineThatIsNotMemoryRefusesInlineWrites() throws Exception {
    BucketCacheConfig config = BucketCaches.config("file:" + dir.resolve("cache.bin"), 8L << 20).writerInline(true)
        .build();
    try (IoEngine engine = IoEngineRegistry.withBuiltins().create(config.ioEngine(),
        EngineGeometry.capacity(config), EngineGeometry.segmentSize(config))) {
      ConfigException e = assertThrows(ConfigException.class, () -> BucketCache.create(config, engine));
      assertEquals(BucketCacheKeys.WRITER_INLINE, e.key());
    }
  }

  @Test
  void theEngineNameIsCaseInsensitiveForInlineWrites() {
    try (BucketCache cache = BucketCaches.create(BucketCaches.config("OFFHEAP", 8L << 20).writerInline(true).build())) {
      assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("f", 0), 100));
    }
  }
}
