package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.testing.HandleGets;
import io.netty.buffer.ByteBuf;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * Pins that a scoped read of a block in an offheap L2's slot allocates nothing (the slot is pinned for the call and
 * lent through the thread's reusable view), by prebuilt key and by file handle, measured with the JVM's per-thread
 * allocation counter.
 */
class ScopedL2ReadAllocationTest {
  private static final int BLOCKS = 64;
  private static final int READS = 100_000;

  /** Sums three bytes of each block; reused, so the reader allocates nothing either. */
  private static final class ThreeBytes implements BlockReader {
    @SuppressWarnings("UnusedVariable") // a sink: the reads must have an effect the compiler keeps
    long sum;

    @Override
    public void read(ByteBuf block) {
      sum += block.getByte(0) + block.getByte(block.capacity() / 2) + block.getByte(block.capacity() - 1);
    }
  }

  @Test
  void aScopedReadOfAnOffheapSlotAllocatesNothing() {
    BucketCache cache = BucketCaches.create(BucketCaches.config("offheap", 8L << 20).writerInline(true).build());
    cache.start();
    try {
      BlockFile file = BlockKey.file("0123456789abcdef0123456789abcdef");
      BlockKey[] keys = HandleGets.cacheBlocks(cache, file, BLOCKS);
      ReadOptions options = ReadOptions.of(BlockCategory.DATA);
      ThreeBytes reader = new ThreeBytes();
      readAll(cache, keys, options, reader); // warm up
      com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long before = threads.getCurrentThreadAllocatedBytes();
      readAll(cache, keys, options, reader);
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertTrue(allocated < 4096, allocated + " bytes allocated by " + READS + " scoped reads");
      readAll(cache, file, options, reader); // warm up
      before = threads.getCurrentThreadAllocatedBytes();
      readAll(cache, file, options, reader);
      allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertTrue(allocated < 4096, allocated + " bytes allocated by " + READS + " scoped reads by handle");
      allocated = HandleGets.bytesAllocatedByGets(cache, file, BLOCKS, READS, options);
      // The slot's view (64 bytes) per get; a key would add 40 more.
      assertTrue(allocated < READS * 64L + 4096, allocated + " bytes allocated by " + READS + " gets by handle");
    } finally {
      cache.close();
    }
  }

  private static void readAll(BucketCache cache, BlockKey[] keys, ReadOptions options, ThreeBytes reader) {
    for (int i = 0; i < READS; i++) {
      assertTrue(cache.read(keys[i % BLOCKS], options, reader));
    }
  }

  private static void readAll(BucketCache cache, BlockFile file, ReadOptions options, ThreeBytes reader) {
    for (int i = 0; i < READS; i++) {
      assertTrue(cache.read(file, (i % BLOCKS) * 4096L, options, reader));
    }
  }
}
