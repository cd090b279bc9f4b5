package dev.blockcache.jmh.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.BucketCache;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale experiment's measuring device serves what the cache wrote (zero blocks behind their headers, verified by
 * the cache's own key and checksum checks), refuses a block it could not give back, and finds its headers again
 * after a restart from the cache's checkpoint.
 */
class HeaderSlotEngineTest {
  private static final int BLOCK = 4096;
  private static final int BLOCKS = 2000;

  @TempDir
  java.nio.file.Path dir;

  @Test
  void zeroBlocksRoundTripAndSurviveARestart() throws Exception {
    ScaleCell cell = new ScaleCell(BLOCKS, BLOCK, ScaleCell.Engine.HEADERS, dir);
    ScaleKeys names = cell.keys();
    try (BucketCache cache = cell.open(60_000).cache()) {
      for (int i = 0; i < BLOCKS; i++) {
        ByteBuf zeros = Unpooled.buffer(BLOCK).writeZero(BLOCK);
        cache.handOver(names.key(i), zeros, CacheOptions.of(BlockCategory.DATA)); // the cache's now
      }
      assertTrue(cache.awaitWritten(Duration.ofMinutes(1)));
      assertEquals(BLOCKS, cache.blockCount());
      assertServed(cache, names);

      ByteBuf nonZero = Unpooled.buffer(BLOCK).writeZero(BLOCK).setByte(7, 1);
      BlockKey odd = BlockKey.of("odd", 0);
      cache.cacheBlock(odd, nonZero, CacheOptions.of(BlockCategory.DATA));
      nonZero.release(); // cacheBlock copied it
      assertTrue(cache.awaitWritten(Duration.ofMinutes(1)));
      assertNull(cache.getBlock(odd, ReadOptions.of(BlockCategory.DATA)), "a block the engine cannot give back");
      assertTrue(cache.metrics().ioErrorCount() > 0);
    }
    assertTrue(Files.size(dir.resolve("headers.bin")) <= HeaderSlotEngine.recordBytes(cell.capacity(), cell.stored()));

    try (BucketCache restarted = cell.open(60_000).cache()) {
      assertEquals(BLOCKS, restarted.blockCount());
      assertServed(restarted, names);
      assertEquals(0, restarted.metrics().headerMismatchCount());
    }
  }

  private static void assertServed(BucketCache cache, ScaleKeys names) {
    for (int i = 0; i < BLOCKS; i++) {
      ByteBuf block = cache.getBlock(names.key(i), ReadOptions.of(BlockCategory.DATA));
      assertNotNull(block, "block " + i);
      try {
        assertEquals(BLOCK, block.readableBytes());
        assertEquals(0, block.getByte(BLOCK - 1));
      } finally {
        block.release();
      }
    }
  }
}
