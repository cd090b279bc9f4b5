package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.persist.IndexCheckpointReader.Status;
import dev.blockcache.bucket.stats.BucketCacheMetrics;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Restart of a file L2 over its checkpoint: exactly the checkpointed blocks come back, and nothing wrong is served. */
class WarmRestartTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);
  private static final int BLOCKS = 200;

  @TempDir
  Path dir;

  private BucketCacheConfig.Builder config() {
    return BucketCaches.config("file:" + dir.resolve("cache.bin"), 32L << 20)
        .persistentPath(dir.resolve("index").toString());
  }

  private static BlockKey key(String file, int i) {
    return BlockKey.of(file, i * 65_536L);
  }

  private static int length(int i) {
    return 1000 + (i * 7919) % 7000;
  }

  private static void put(BucketCache cache, BlockKey key, int length) {
    ByteBuf source = Blocks.payload(key, length);
    try {
      assertEquals(CacheResult.CACHED, cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA)));
    } finally {
      source.release();
    }
    // One block in flight at a time: a full writer queue (QUEUE_FULL) on a loaded machine is not what is tested.
    BucketCaches.drain(cache);
  }

  private static BucketCache started(BucketCacheConfig config) {
    BucketCache cache = BucketCaches.create(config);
    cache.start();
    return cache;
  }

  @Test
  void restartServesEveryCheckpointedBlockWithItsBytes() {
    try (BucketCache cache = started(config().build())) {
      for (int i = 0; i < BLOCKS; i++) {
        put(cache, key("a", i), length(i));
      }
      BucketCaches.drain(cache);
    }
    try (BucketCache cache = started(config().build())) {
      assertEquals(Status.RESTORED, cache.persistence().restored().status());
      assertEquals(BLOCKS, cache.persistence().restored().restored());
      assertEquals(0, cache.persistence().restored().discarded());
      assertEquals(BLOCKS, cache.blockCount());
      for (int i = 0; i < BLOCKS; i++) {
        ByteBuf block = cache.getBlock(key("a", i), DATA);
        assertNotNull(block, "lost " + key("a", i));
        Blocks.verify(key("a", i), length(i), block);
        block.release();
      }
      put(cache, key("b", 0), 3000);
      BucketCaches.drain(cache);
      ByteBuf fresh = cache.getBlock(key("b", 0), DATA);
      Blocks.verify(key("b", 0), 3000, fresh);
      fresh.release();
    }
  }

  @Test
  void slotsReusedAfterTheCheckpointAreMissesNeverWrongBlocks() throws IOException {
    Path saved = dir.resolve("saved");
    try (BucketCache cache = started(config().build())) {
      for (int i = 0; i < BLOCKS; i++) {
        put(cache, key("old", i), length(i));
      }
      BucketCaches.drain(cache);
      assertEquals(BLOCKS, cache.persistence().persister().checkpoint());
      Files.copy(dir.resolve("index"), saved);
      for (int i = 0; i < BLOCKS; i++) {
        assertTrue(cache.evictBlock(key("old", i)));
      }
      for (int i = 0; i < BLOCKS; i++) {
        put(cache, key("new", i), length(i));
      }
      BucketCaches.drain(cache);
    }
    // As if the process died right after the saved checkpoint: its index names slots that now hold other blocks.
    Files.copy(saved, dir.resolve("index"), StandardCopyOption.REPLACE_EXISTING);
    int served = 0;
    try (BucketCache cache = started(config().build())) {
      assertEquals(Status.RESTORED, cache.persistence().restored().status());
      for (int i = 0; i < BLOCKS; i++) {
        ByteBuf block = cache.getBlock(key("old", i), DATA);
        if (block != null) {
          Blocks.verify(key("old", i), length(i), block);
          block.release();
          served++;
        }
        assertNull(cache.getBlock(key("new", i), DATA), "not in the checkpoint");
      }
      BucketCacheMetrics m = cache.metrics();
      assertEquals(BLOCKS - served, m.headerMismatchCount() + m.checksumMismatchCount(),
          "every restored entry whose slot was reused is discarded and counted");
      assertEquals(served, cache.blockCount());
    }
  }

  @Test
  void aCheckpointFromAnotherConfigurationIsDiscarded() {
    try (BucketCache cache = started(config().build())) {
      put(cache, key("a", 1), 2000);
      BucketCaches.drain(cache);
    }
    try (BucketCache cache = started(config().capacity(16L << 20).build())) {
      assertEquals(Status.CONFIG_MISMATCH, cache.persistence().restored().status());
      assertEquals(0, cache.blockCount());
      assertNull(cache.getBlock(key("a", 1), DATA));
    }
  }

  @Test
  void aCorruptCheckpointIsDiscardedAndTheCacheStartsCold() throws IOException {
    Files.write(dir.resolve("index"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
        20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33});
    try (BucketCache cache = started(config().build())) {
      assertEquals(Status.CORRUPT, cache.persistence().restored().status());
      put(cache, key("a", 1), 2000);
      BucketCaches.drain(cache);
      ByteBuf block = cache.getBlock(key("a", 1), DATA);
      Blocks.verify(key("a", 1), 2000, block);
      block.release();
    }
  }

  @Test
  void memoryEnginesAndUncheckedReadsDoNotPersist() {
    try (BucketCache cache = BucketCaches.create(BucketCaches.config("offheap", 16L << 20)
        .persistentPath(dir.resolve("index").toString()).build())) {
      assertNull(cache.persistence());
    }
    try (BucketCache cache = BucketCaches.create(config().checksumVerify(false).build())) {
      assertNull(cache.persistence());
    }
  }
}
