package dev.blockcache.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import java.lang.management.ManagementFactory;

/** Blocks of one file cached and read back by the file's handle, for the allocation tests of gets and reads. */
public final class HandleGets {
  /** Bytes per block, and the distance between the blocks' offsets. */
  public static final int BLOCK_SIZE = 4096;

  private HandleGets() {}

  /**
   * Caches {@code blocks} zeroed data blocks of {@code file}, at offsets 0, {@link #BLOCK_SIZE}, ...
   *
   * @return their keys, in offset order
   */
  public static BlockKey[] cacheBlocks(BlockCache cache, BlockFile file, int blocks) {
    BlockKey[] keys = new BlockKey[blocks];
    for (int i = 0; i < blocks; i++) {
      keys[i] = file.block((long) i * BLOCK_SIZE);
      ByteBuf block = Unpooled.wrappedBuffer(new byte[BLOCK_SIZE]);
      try {
        assertEquals(CacheResult.CACHED, cache.cacheBlock(keys[i], block, CacheOptions.of(BlockCategory.DATA)));
      } finally {
        block.release(); // cacheBlock copies: the caller's reference stays the caller's
      }
    }
    return keys;
  }

  /**
   * The bytes this thread allocates for {@code gets} gets by {@code file}'s handle over the first {@code blocks}
   * blocks in turn (each block's first, middle and last byte read, the view released), measured after as many gets
   * of warm-up. Netty's leak detector is off meanwhile: at PARANOID it records a stack trace for every view.
   */
  public static long bytesAllocatedByGets(BlockCache cache, BlockFile file, int blocks, int gets,
      ReadOptions options) {
    ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    try {
      long sum = sumThreeBytes(cache, file, blocks, gets, options);
      com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long before = threads.getCurrentThreadAllocatedBytes();
      sum += sumThreeBytes(cache, file, blocks, gets, options);
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertEquals(0, sum, "the cached blocks are zeroed");
      return allocated;
    } finally {
      ResourceLeakDetector.setLevel(level);
    }
  }

  private static long sumThreeBytes(BlockCache cache, BlockFile file, int blocks, int gets, ReadOptions options) {
    long sum = 0;
    for (int i = 0; i < gets; i++) {
      ByteBuf block = cache.getBlock(file, (long) (i % blocks) * BLOCK_SIZE, options); // ours to release
      try {
        sum += block.getByte(0) + block.getByte(block.capacity() / 2) + block.getByte(block.capacity() - 1);
      } finally {
        block.release();
      }
    }
    return sum;
  }
}
