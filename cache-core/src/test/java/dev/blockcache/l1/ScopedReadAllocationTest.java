package dev.blockcache.l1;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.l1.tinylfu.TinyLfuBlockCache;
import dev.blockcache.testing.HandleGets;
import io.netty.buffer.ByteBuf;
import java.lang.management.ManagementFactory;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pins that a scoped read of an L1 hit allocates nothing: the reusable view, not a new one per read. Measured with
 * the JVM's per-thread allocation counter over many reads of prebuilt keys, so that the key is not counted, and over
 * many reads by the file's handle and an offset, which build no key at all.
 */
class ScopedReadAllocationTest {
  private static final int BLOCKS = 64;
  private static final int READS = 200_000;

  /** Sums three bytes of each block, as a reader does; reused, so the reader allocates nothing either. */
  private static final class ThreeBytes implements BlockReader {
    @SuppressWarnings("UnusedVariable") // a sink: the reads must have an effect the compiler keeps
    long sum;

    @Override
    public void read(ByteBuf block) {
      sum += block.getByte(0) + block.getByte(block.capacity() / 2) + block.getByte(block.capacity() - 1);
    }
  }

  static Stream<Supplier<BlockCache>> l1Caches() {
    long capacity = 4L << 20;
    return Stream.of(
        () -> new LruBlockCache(LruConfig.builder(capacity).build()),
        () -> new TinyLfuBlockCache(TinyLfuConfig.of(capacity, 1 << 20, LruConfig.DEFAULT_MIN_BLOCK_SIZE)),
        // started: Caffeine's read-buffer drains are handed to the maintenance thread without allocating
        () -> new TinyLfuBlockCache(TinyLfuConfig.of(capacity, 1 << 20, LruConfig.DEFAULT_MIN_BLOCK_SIZE)).start());
  }

  @ParameterizedTest
  @MethodSource("l1Caches")
  void aScopedReadOfAnL1HitAllocatesNothing(Supplier<BlockCache> factory) {
    try (BlockCache cache = factory.get()) {
      BlockFile file = BlockKey.file("0123456789abcdef0123456789abcdef");
      BlockKey[] keys = HandleGets.cacheBlocks(cache, file, BLOCKS);
      ReadOptions options = ReadOptions.of(BlockCategory.DATA);
      ThreeBytes reader = new ThreeBytes();
      readAll(cache, keys, options, reader); // warm up: first-touch allocations (thread-local view, striped buffers)
      com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long before = threads.getCurrentThreadAllocatedBytes();
      readAll(cache, keys, options, reader);
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      // Nothing per read; a few hundred bytes of one-off noise (the counter's own call) are allowed.
      assertTrue(allocated < 4096, allocated + " bytes allocated by " + READS + " scoped reads");
    }
  }

  @ParameterizedTest
  @MethodSource("l1Caches")
  void aScopedReadByFileHandleAllocatesNothing(Supplier<BlockCache> factory) {
    try (BlockCache cache = factory.get()) {
      BlockFile file = cachedFile(cache);
      ReadOptions options = ReadOptions.of(BlockCategory.DATA);
      ThreeBytes reader = new ThreeBytes();
      readAll(cache, file, options, reader);
      com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long before = threads.getCurrentThreadAllocatedBytes();
      readAll(cache, file, options, reader);
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertTrue(allocated < 4096, allocated + " bytes allocated by " + READS + " scoped reads by handle");
    }
  }

  @ParameterizedTest
  @MethodSource("l1Caches")
  void aGetByFileHandleAllocatesAtMostItsView(Supplier<BlockCache> factory) {
    try (BlockCache cache = factory.get()) {
      BlockFile file = cachedFile(cache);
      ReadOptions options = ReadOptions.of(BlockCategory.DATA);
      long allocated = HandleGets.bytesAllocatedByGets(cache, file, BLOCKS, READS, options);
      // The view (at most 64 bytes) where the JIT does not scalar-replace it; a key would add 40 more per get.
      assertTrue(allocated < READS * 64L + 4096, allocated + " bytes allocated by " + READS + " gets by handle");
    }
  }

  /** A file's handle, with {@link #BLOCKS} of its blocks cached in {@code cache}. */
  private static BlockFile cachedFile(BlockCache cache) {
    BlockFile file = BlockKey.file("0123456789abcdef0123456789abcdef");
    HandleGets.cacheBlocks(cache, file, BLOCKS);
    return file;
  }

  private static void readAll(BlockCache cache, BlockKey[] keys, ReadOptions options, ThreeBytes reader) {
    for (int i = 0; i < READS; i++) {
      assertTrue(cache.read(keys[i % BLOCKS], options, reader));
    }
  }

  private static void readAll(BlockCache cache, BlockFile file, ReadOptions options, ThreeBytes reader) {
    for (int i = 0; i < READS; i++) {
      assertTrue(cache.read(file, (i % BLOCKS) * 4096L, options, reader));
    }
  }
}
