package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.L2Spec.Engine;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.write.QueueWait;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pins that a full L2 on a device engine ({@code file:}, {@code files:}, {@code mmap:}) takes a sustained stream of
 * new blocks without refusing any for lack of space while evictable blocks remain, through the copying
 * {@code cacheBlock} and through {@code handOver}.
 *
 * <p>The writers fall behind the inserting thread by a queue of blocks, as they do when one thread inserts faster
 * than a device write: the test queues as many blocks as one writer queue holds and only then writes them
 * (on its own thread: the cache is not started, so the pipeline is stepped by hand and the run is deterministic).
 * Every block was admitted while the ones before it waited; none is pinned by a reader, so every cached block is
 * evictable and each new one must find a slot. The stream is three times the cache's slots, so the cache turns over
 * several times.
 */
class FullCacheSustainedInsertTest {
  /** Blocks per test: three times the slots of the block's size class, so the cache is refilled twice over. */
  private static final int TURNOVERS = 3;

  @TempDir
  Path dir;

  enum Insert { CACHE_BLOCK, HAND_OVER }

  /**
   * The capacity is some MiB: at least twice a writer queue's blocks fit, so that the blocks a queue holds (which own
   * their slots while they wait) never take every slot and evictable blocks always remain.
   */
  @ParameterizedTest(name = "{0} {1} {2} B in {3} MiB")
  @CsvSource({
      "FILE, CACHE_BLOCK, 4096, 2", "FILE, HAND_OVER, 4096, 2", "FILE, HAND_OVER, 65536, 12",
      "FILES, CACHE_BLOCK, 4096, 2", "FILES, HAND_OVER, 4096, 2",
      "MMAP, CACHE_BLOCK, 4096, 2", "MMAP, HAND_OVER, 4096, 2"})
  void refusesNoNewBlockForLackOfSpaceWhileEvictableBlocksRemain(Engine engine, Insert insert, int blockSize,
      int capacityMib) {
    BucketCacheConfig config = BucketCaches.config(engine.spec(dir), (long) capacityMib << 20).build();
    try (BucketCache cache = BucketCaches.create(config)) {
      int batch = config.writerQueueLength(); // one queue's room: no queue can be full before it
      int slots = slotsFor(cache, blockSize);
      assertTrue(slots >= 2 * batch, slots + " slots for queues of " + batch);
      int blocks = TURNOVERS * slots;
      Map<CacheResult, Integer> results = new EnumMap<>(CacheResult.class);
      for (int i = 0; i < blocks; i++) {
        results.merge(insert(cache, insert, BlockKey.of("sustained", (long) i * blockSize), blockSize), 1,
            Integer::sum);
        if ((i + 1) % batch == 0) {
          BucketCaches.drain(cache);
        }
      }
      BucketCaches.drain(cache);

      assertEquals(Map.of(CacheResult.CACHED, blocks), results, "results of the inserts");
      assertEquals(0, cache.metrics().noSpaceCount(), "blocks dropped for lack of space");
      assertEquals(0, cache.stats().failedInsertionCount(), "failed insertions");
      assertEquals(slots, cache.blockCount(), "the cache stays full");
      assertEquals(blocks - slots, cache.stats().evictedBlockCount(), "one block evicted per block that came in");
    }
  }

  /** Slots of the size class a block of {@code blockSize} bytes takes in {@code cache}'s allocator. */
  private static int slotsFor(BucketCache cache, int blockSize) {
    int stored = BlockHeader.headerLength(BlockKey.of("sustained", 0)) + blockSize;
    int itemSize = 0;
    for (int size : BucketCaches.SIZES) {
      if (size >= stored) {
        itemSize = size;
        break;
      }
    }
    int bucketCapacity = cache.allocator().bucketCapacity();
    return (int) (cache.allocator().capacity() / bucketCapacity) * (bucketCapacity / itemSize);
  }

  private static CacheResult insert(BucketCache cache, Insert insert, BlockKey key, int blockSize) {
    ByteBuf block = Blocks.payload(key, blockSize);
    CacheOptions options = CacheOptions.of(BlockCategory.DATA);
    if (insert == Insert.HAND_OVER) {
      return cache.handOver(key, block, options, QueueWait.NONE);
    }
    try {
      return cache.cacheBlock(key, block, options, QueueWait.NONE);
    } finally {
      block.release();
    }
  }
}
