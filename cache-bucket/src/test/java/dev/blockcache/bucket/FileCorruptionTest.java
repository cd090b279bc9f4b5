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
import dev.blockcache.bucket.engine.CacheFileHeader;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.stats.BucketCacheMetrics;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bytes flipped in the cache file behind the cache's back: every damaged block is detected and none is served. */
class FileCorruptionTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);
  private static final int BLOCKS = 300;

  @TempDir
  Path dir;

  private static void put(BucketCache cache, BlockKey key, int length) {
    ByteBuf source = Blocks.payload(key, length);
    try {
      assertEquals(CacheResult.CACHED, cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA)));
    } finally {
      source.release();
    }
  }

  private static int length(int i) {
    return 1000 + (i * 7919) % 60_000;
  }

  /** Flips one random bit of one random byte in the slot of each chosen key; returns the keys damaged. */
  private static Set<BlockKey> corrupt(BucketCache cache, Path file, List<BlockKey> keys, Random random)
      throws IOException {
    Set<BlockKey> damaged = new HashSet<>();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      for (BlockKey key : keys) {
        if (!random.nextBoolean()) {
          continue;
        }
        long entry = cache.index().peek(key);
        long at = CacheFileHeader.LENGTH + IndexEntry.offset(entry) + random.nextInt(IndexEntry.length(entry));
        ByteBuffer one = ByteBuffer.allocate(1);
        channel.read(one, at);
        one.put(0, (byte) (one.get(0) ^ (1 << random.nextInt(8))));
        one.rewind();
        channel.write(one, at);
        damaged.add(key);
      }
    }
    return damaged;
  }

  /** Engines: {@code file}, {@code mmap}, and {@code direct} = {@code file} with O_DIRECT. */
  @ParameterizedTest
  @ValueSource(strings = {"file", "mmap", "direct"})
  void everyFlippedBlockIsAMissAndEvictedAndEveryOtherIsServedIntact(String engine) throws IOException {
    Path file = dir.resolve("cache.bin");
    String scheme = engine.equals("direct") ? "file" : engine;
    BucketCacheConfig config = BucketCaches.config(scheme + ":" + file, 64L << 20)
        .fileDirectIo(engine.equals("direct")).build();
    try (BucketCache cache = BucketCaches.create(config)) {
      List<BlockKey> keys = new ArrayList<>();
      for (int i = 0; i < BLOCKS; i++) {
        BlockKey key = BlockKey.of("hfile-" + (i % 7), i * 65_536L);
        put(cache, key, length(i));
        BucketCaches.drain(cache);
        keys.add(key);
      }
      Set<BlockKey> damaged = corrupt(cache, file, keys, new Random(2024));
      assertTrue(damaged.size() > BLOCKS / 3, "too few blocks damaged to mean anything: " + damaged.size());

      int served = 0;
      for (int i = 0; i < BLOCKS; i++) {
        BlockKey key = keys.get(i);
        ByteBuf block = cache.getBlock(key, DATA);
        if (damaged.contains(key)) {
          assertNull(block, "a damaged block was served: " + key);
          assertEquals(IndexEntry.ABSENT, cache.index().peek(key), "a damaged block stayed cached");
        } else {
          assertNotNull(block, "an intact block was lost: " + key);
          Blocks.verify(key, length(i), block);
          block.release();
          served++;
        }
      }
      BucketCacheMetrics metrics = cache.metrics();
      assertEquals(damaged.size(), metrics.checksumMismatchCount() + metrics.headerMismatchCount(),
          "every damaged block is counted once");
      assertEquals(BLOCKS - damaged.size(), served);
      assertEquals(BLOCKS - damaged.size(), cache.blockCount());
    }
  }

  @Test
  void withChecksumsOffTheHeaderStillGuardsTheKeyButBodyDamageIsNotSeen() throws IOException {
    Path file = dir.resolve("cache.bin");
    BlockKey key = BlockKey.of("f", 0);
    try (BucketCache cache = BucketCaches.create(
        BucketCaches.config("file:" + file, 16L << 20).checksumVerify(false).build())) {
      put(cache, key, 4000);
      BucketCaches.drain(cache);
      long entry = cache.index().peek(key);
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
        channel.write(ByteBuffer.wrap(new byte[] {0x55}),
            CacheFileHeader.LENGTH + IndexEntry.offset(entry) + IndexEntry.length(entry) - 1);
      }
      ByteBuf block = cache.getBlock(key, DATA);
      assertNotNull(block, "with hbase.bucketcache.checksum.verify=false the CRC is not checked");
      assertEquals(0, cache.metrics().checksumMismatchCount());
      block.release();
    }
  }
}
