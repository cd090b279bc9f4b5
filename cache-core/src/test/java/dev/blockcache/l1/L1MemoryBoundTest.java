package dev.blockcache.l1;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.l1.tinylfu.TinyLfuBlockCache;
import dev.blockcache.testing.Figures;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An L1 filled far past its capacity with blocks of random sizes (1 B to the max block size, some in-memory) stays
 * within its configured heap share plus one max block: checked after every insert on the accounted size (block bytes
 * plus the larger of {@link HeapBlock#LRU_ENTRY_OVERHEAD} and {@link HeapBlock#TINYLFU_ENTRY_OVERHEAD}). Forbids an eviction that falls behind or under-counts. The LRU runs
 * unstarted, so eviction is inline with the insert; with the evictor thread HBase's hard limit (1.2 x acceptable)
 * bounds it instead, which {@code CombinedStackStressTest} samples under 8 threads.
 */
class L1MemoryBoundTest {
  private static final long CAPACITY = 16L << 20;
  private static final int MAX_BLOCK = 1 << 20;
  private static final int INSERTS = 20_000;

  private static BlockCache cache(String policy) {
    return policy.equals("LRU")
        ? new LruBlockCache(LruConfig.builder(CAPACITY).maxBlockSize(MAX_BLOCK).build())
        : new TinyLfuBlockCache(TinyLfuConfig.of(CAPACITY, MAX_BLOCK, 65_536));
  }

  @ParameterizedTest
  @ValueSource(strings = {"LRU", "TinyLFU"})
  void aFillWithRandomSizesStaysWithinCapacityPlusOneMaxBlock(String policy) {
    SplittableRandom random = new SplittableRandom(5);
    byte[] bytes = new byte[MAX_BLOCK];
    long bound = CAPACITY + MAX_BLOCK + Math.max(HeapBlock.LRU_ENTRY_OVERHEAD, HeapBlock.TINYLFU_ENTRY_OVERHEAD);
    long peak = 0;
    long offered = 0;
    try (BlockCache cache = cache(policy)) {
      for (int i = 0; i < INSERTS; i++) {
        // Mostly small blocks, a few large: the mix that strands space when accounting is off.
        int length = random.nextInt(10) == 0 ? 1 + random.nextInt(MAX_BLOCK) : 1 + random.nextInt(64 * 1024);
        ByteBuf block = Unpooled.wrappedBuffer(bytes, 0, length);
        BlockKey key = BlockKey.of("f" + random.nextInt(50), i * 4096L);
        cache.cacheBlock(key, block, random.nextInt(5) == 0 ? CacheOptions.inMemory(BlockCategory.INDEX)
            : CacheOptions.of(BlockCategory.INDEX));
        offered += length;
        peak = Math.max(peak, cache.size());
        assertTrue(cache.size() <= bound, policy + " at insert " + i + ": " + cache.size() + " > " + bound);
      }
      new Figures("L1MemoryBoundTest", policy).put("inserts", INSERTS).put("offeredBytes", offered)
          .put("peakAccountedBytes", peak).put("capacity", CAPACITY).put("maxBlock", MAX_BLOCK).print();
      assertTrue(offered > 10 * CAPACITY, "the fill did not go far past capacity");
    }
  }
}
