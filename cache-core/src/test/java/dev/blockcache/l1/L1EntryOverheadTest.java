package dev.blockcache.l1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.l1.tinylfu.TinyLfuBlockCache;
import dev.blockcache.testing.Figures;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link HeapBlock#LRU_ENTRY_OVERHEAD} and {@link HeapBlock#TINYLFU_ENTRY_OVERHEAD}, the heap each L1 accounts per
 * entry beyond its block bytes, are not below what an entry really costs (they once counted the 40-byte key as 32): a forced-GC heap delta over {@value #ENTRIES} cached blocks, less their bytes, per block. Keys
 * are built as a reader builds them ({@code BlockKey.of} over a few shared file names) and cached with
 * {@code handOver} of arrays kept by the cache, so the delta is the cache's own: map node or table slots, entry, array
 * header, file index. It also bounds how far above the true cost the constant may be, so that the cache does not
 * hold far fewer blocks than its capacity allows.
 */
class L1EntryOverheadTest {
  private static final int ENTRIES = 200_000;
  private static final int BLOCK = 64;
  /**
   * Bytes before each block in its array, as an HFile block's header: the array is kept (the block fills most of it)
   * but the block does not span it, the costlier shape (a TinyLFU entry then keeps the block's region as its map
   * value; a block spanning its array costs 32 B less there).
   */
  private static final int HEADER = 4;
  /**
   * How far above the measured cost the constant may be: tables double, so their share per entry varies (the LRU's
   * open-addressing table between 16 and 32 B, Caffeine's map between about 5 and 11 B beside its nodes).
   */
  private static final int SLACK = 32;

  private static BlockCache cache(String policy) {
    long capacity = (long) ENTRIES * 1024;
    return policy.equals("LRU")
        ? new LruBlockCache(LruConfig.builder(capacity).minBlockSize(1024).build())
        : new TinyLfuBlockCache(TinyLfuConfig.of(capacity, 65_536, 1024));
  }

  @ParameterizedTest
  @ValueSource(strings = {"LRU", "TinyLFU"})
  void theAccountedOverheadCoversWhatAnEntryCosts(String policy) {
    String[] files = new String[32];
    for (int f = 0; f < files.length; f++) {
      files[f] = String.format("%032x", f * 0x9E3779B97F4A7C15L);
    }
    long before = settledHeap();
    BlockCache cache = cache(policy);
    try {
      for (int i = 0; i < ENTRIES; i++) {
        BlockKey key = BlockKey.of(files[i % files.length], (long) (i / files.length) * BLOCK);
        assertEquals(CacheResult.CACHED,
            cache.handOver(key, Unpooled.wrappedBuffer(new byte[BLOCK]).readerIndex(HEADER),
                CacheOptions.of(BlockCategory.DATA)));
      }
      double perEntry = (double) (settledHeap() - before) / ENTRIES - BLOCK;
      int accounted = policy.equals("LRU") ? HeapBlock.LRU_ENTRY_OVERHEAD : HeapBlock.TINYLFU_ENTRY_OVERHEAD;
      new Figures("L1EntryOverheadTest", policy).put("entries", ENTRIES).put("heapBytesPerEntry", perEntry)
          .put("accounted", accounted).print();
      assertTrue(perEntry <= accounted,
          policy + ": an entry costs " + perEntry + " B beyond its block, the cache accounts " + accounted);
      assertTrue(perEntry + SLACK >= accounted,
          policy + ": the cache accounts " + accounted + " B per entry, far above the " + perEntry + " B measured");
      assertEquals(ENTRIES, cache.blockCount());
    } finally {
      Reference.reachabilityFence(cache);
      Reference.reachabilityFence(files);
      cache.close();
    }
  }

  /** Used heap after full GCs, once two in a row agree within 64 KiB (at most 10). */
  private static long settledHeap() {
    long previous = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (Math.abs(previous - used) < 64 * 1024) {
        return used;
      }
      previous = used;
    }
    return previous;
  }
}
