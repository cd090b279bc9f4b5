package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.engine.CacheFileHeader;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.stats.BucketCacheMetrics;
import dev.blockcache.testing.Blocks;
import dev.blockcache.testing.Figures;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 1,000 random byte flips anywhere in a full cache file (slot headers, block bytes, padding, free space), behind the
 * cache's back; 1 round in verify, 10 with {@code -Dblockcache.corruption.long=true}. Forbids: a damaged block served
 * (each block whose slot bytes changed must miss, be evicted and be counted once), an intact block lost, and any
 * served block that is not its key's. Prints blocks, flips, damaged, detected and served-wrong.
 */
class FileByteFlipTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);
  private static final int FLIPS = 1000;

  @TempDir
  Path dir;

  private static int length(int i) {
    return 500 + (int) ((i * 7919L) % 30_000);
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "mmap"})
  void everyDamagedBlockIsAMissAndNoServedBlockIsWrong(String scheme) throws IOException {
    int rounds = Boolean.getBoolean("blockcache.corruption.long") ? 10 : 1;
    SplittableRandom random = new SplittableRandom(99);
    long blocks = 0;
    long damagedTotal = 0;
    long detectedTotal = 0;
    long servedWrong = 0;
    long served = 0;
    for (int round = 0; round < rounds; round++) {
      Path file = dir.resolve("cache-" + round + ".bin");
      try (BucketCache cache = BucketCaches.create(BucketCaches.config(scheme + ":" + file, 16L << 20).build())) {
        List<BlockKey> keys = new ArrayList<>();
        for (int i = 0; cache.metrics().allocator().usedItemBytes() < 0.8 * cache.capacity(); i++) {
          BlockKey key = BlockKey.of("hfile-" + (i % 5), i * 65_536L);
          ByteBuf source = Blocks.payload(key, length(i));
          try {
            assertEquals(CacheResult.CACHED, cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA)));
          } finally {
            source.release();
          }
          BucketCaches.drain(cache);
          keys.add(key);
        }
        assertEquals(0, cache.stats().evictedBlockCount(), "filled past the eviction point");
        byte[] before = Files.readAllBytes(file);
        byte[] after = before.clone();
        for (int f = 0; f < FLIPS; f++) {
          after[random.nextInt(after.length)] ^= (byte) (1 + random.nextInt(255));
        }
        Files.write(file, after);

        int damaged = 0;
        for (int i = 0; i < keys.size(); i++) {
          BlockKey key = keys.get(i);
          long entry = cache.index().peek(key);
          int from = CacheFileHeader.LENGTH + (int) IndexEntry.offset(entry);
          int to = from + IndexEntry.length(entry);
          boolean hit = !Arrays.equals(before, from, to, after, from, to);
          damaged += hit ? 1 : 0;
          ByteBuf block = cache.getBlock(key, DATA);
          if (block == null) {
            assertTrue(hit, "an intact block was lost: " + key);
            assertEquals(IndexEntry.ABSENT, cache.index().peek(key), "a damaged block stayed cached");
            continue;
          }
          served++;
          boolean right = block.readableBytes() == length(i) && Blocks.matches(key, block);
          block.release();
          servedWrong += right ? 0 : 1;
          assertTrue(!hit, "a damaged block was served: " + key);
        }
        BucketCacheMetrics m = cache.metrics();
        long detected = m.checksumMismatchCount() + m.headerMismatchCount();
        assertEquals(damaged, detected, "every damaged block is detected and counted once");
        assertTrue(damaged > keys.size() / 4, "too few blocks damaged to mean anything: " + damaged);
        blocks += keys.size();
        damagedTotal += damaged;
        detectedTotal += detected;
      }
    }
    new Figures("FileByteFlipTest", scheme).put("rounds", rounds).put("flips", (long) rounds * FLIPS)
        .put("blocks", blocks).put("damaged", damagedTotal).put("detected", detectedTotal).put("served", served)
        .put("servedWrong", servedWrong).print();
    assertEquals(0, servedWrong, "wrong blocks served");
  }
}
