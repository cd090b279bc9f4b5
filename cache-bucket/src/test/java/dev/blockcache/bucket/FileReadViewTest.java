package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.read.ReadBufferPool;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import io.netty.util.IllegalReferenceCountException;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gets on a file engine hand out views of reused read buffers ({@link ReadBufferPool}). Forbids: a held block whose
 * buffer is reused by later gets (its bytes would change), a view that can be written or read after its release,
 * a buffer kept or leaked after close (the leak detector runs at PARANOID).
 */
class FileReadViewTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);
  private static final int BLOCKS = 40;

  @TempDir
  Path dir;

  @Test
  void heldBlocksKeepTheirBytesWhileLaterGetsReuseBuffers() {
    BucketCache cache = BucketCaches.create(BucketCaches.config("file:" + dir.resolve("cache.bin"), 16L << 20).build());
    List<BlockKey> keys = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < BLOCKS; i++) {
      BlockKey key = BlockKey.of("hfile", i * 8192L);
      ByteBuf source = Blocks.payload(key, 4000 + i);
      try {
        assertEquals(CacheResult.CACHED, cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA)));
      } finally {
        source.release();
      }
      keys.add(key);
    }
    BucketCaches.drain(cache);
    List<ByteBuf> held = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ByteBuf block = cache.getBlock(keys.get(i), DATA);
      assertNotNull(block);
      assertEquals(0, block.readerIndex());
      assertThrows(ReadOnlyBufferException.class, () -> block.setByte(0, 1));
      held.add(block);
    }
    for (int n = 0; n < 2_000; n++) {
      int i = 5 + random.nextInt(BLOCKS - 5);
      ByteBuf block = cache.getBlock(keys.get(i), DATA);
      assertNotNull(block);
      Blocks.verify(keys.get(i), 4000 + i, block);
      assertTrue(block.release());
      assertThrows(IllegalReferenceCountException.class, () -> block.getByte(0), "read after release");
    }
    for (int i = 0; i < 5; i++) {
      Blocks.verify(keys.get(i), 4000 + i, held.get(i));
    }
    cache.close();
    for (int i = 0; i < 5; i++) {
      Blocks.verify(keys.get(i), 4000 + i, held.get(i)); // a held block outlives close
      assertTrue(held.get(i).release());
    }
  }
}
