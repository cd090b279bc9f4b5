package dev.blockcache.l1.lru;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CachePriority;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.LruConfig;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** HBase LruBlockCache semantics beyond the shared contract: priorities, watermarks, hard limit, force mode. */
class LruBlockCacheTest {
  private static final int BLOCK = 4096;
  private static final long ENTRY = BLOCK + HeapBlock.LRU_ENTRY_OVERHEAD;

  private static CacheResult put(LruBlockCache cache, BlockKey key, CacheOptions options) {
    ByteBuf source = Blocks.payload(key, BLOCK);
    try {
      return cache.cacheBlock(key, source, options);
    } finally {
      source.release();
    }
  }

  private static boolean hit(LruBlockCache cache, BlockKey key) {
    ByteBuf b = cache.getBlock(key, ReadOptions.of(BlockCategory.DATA));
    if (b == null) {
      return false;
    }
    b.release();
    return true;
  }

  @Test
  void aHitPromotesSingleToMulti() {
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(100 * ENTRY).build())) {
      BlockKey key = BlockKey.of("f", 0);
      put(cache, key, CacheOptions.of(BlockCategory.DATA));
      assertEquals(ENTRY, cache.prioritySize(CachePriority.SINGLE));
      assertTrue(hit(cache, key));
      assertEquals(0, cache.prioritySize(CachePriority.SINGLE));
      assertEquals(ENTRY, cache.prioritySize(CachePriority.MULTI));
      assertTrue(hit(cache, key));
      assertEquals(ENTRY, cache.prioritySize(CachePriority.MULTI));
    }
  }

  @Test
  void cachingAPresentKeyAgainCountsAsAnAccess() {
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(100 * ENTRY).build())) {
      BlockKey key = BlockKey.of("f", 0);
      assertEquals(CacheResult.CACHED, put(cache, key, CacheOptions.of(BlockCategory.DATA)));
      assertEquals(CacheResult.ALREADY_CACHED, put(cache, key, CacheOptions.of(BlockCategory.DATA)));
      assertEquals(0, cache.prioritySize(CachePriority.SINGLE), "re-caching did not promote the block");
      assertEquals(ENTRY, cache.prioritySize(CachePriority.MULTI));
      assertEquals(0, cache.stats().hitCount(), "an access, not a hit");
    }
  }

  @Test
  void aCacheSizedForOneBlockKeepsTakingNewBlocks() {
    // Room for one block and a bit: the acceptable size leaves no room for a second block, so a pass that starts
    // above the acceptable size frees nothing, and the hard limit refused every later block.
    for (boolean started : new boolean[] {false, true}) {
      LruBlockCache cache = new LruBlockCache(LruConfig.builder(ENTRY * 21 / 20).build());
      if (started) {
        cache.start();
      }
      try (cache) {
        for (int i = 0; i < 10; i++) {
          BlockKey key = BlockKey.of("f", i);
          assertEquals(CacheResult.CACHED, put(cache, key, CacheOptions.of(BlockCategory.DATA)), "block " + i);
          assertTrue(hit(cache, key), "block " + i + " not readable right after it was cached");
        }
        assertEquals(1, cache.blockCount());
        assertEquals(0, cache.stats().failedInsertionCount());
      }
    }
  }

  @Test
  void evictionStartsAboveAcceptableAndFreesDownToMin() {
    long capacity = 100 * ENTRY;
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(capacity).build())) {
      for (int i = 0; i < 99; i++) {
        put(cache, BlockKey.of("f", i), CacheOptions.of(BlockCategory.DATA));
      }
      assertEquals(99, cache.blockCount(), "99 of 100 entries is exactly at the acceptable size");
      assertEquals(0, cache.stats().evictionRunCount());
      put(cache, BlockKey.of("f", 99), CacheOptions.of(BlockCategory.DATA));
      assertEquals(1, cache.stats().evictionRunCount());
      assertTrue(cache.size() <= (long) (capacity * 0.95), "size " + cache.size());
      assertEquals(95, cache.blockCount());
    }
  }

  @Test
  void singleAccessBlocksGoBeforeMultiAccessBlocks() {
    long capacity = 100 * ENTRY;
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(capacity).build())) {
      // 40 multi-access blocks stay under the multi share (50% of the minimum size): only singles overflow.
      for (int i = 0; i < 40; i++) {
        put(cache, BlockKey.of("hot", i), CacheOptions.of(BlockCategory.DATA));
        hit(cache, BlockKey.of("hot", i));
      }
      for (int i = 0; i < 80; i++) {
        put(cache, BlockKey.of("cold", i), CacheOptions.of(BlockCategory.DATA));
      }
      for (int i = 0; i < 40; i++) {
        assertTrue(hit(cache, BlockKey.of("hot", i)), "multi-access block " + i + " was evicted");
      }
      assertTrue(cache.stats().evictedBlockCount() > 0);
    }
  }

  @Test
  void freeingMultiMovesPromotedBlocksStillLinkedAsSingle() {
    long capacity = 100 * ENTRY;
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(capacity).build())) {
      // 90 blocks promoted before any pass: the multi list holds all of them, the single list none.
      for (int i = 0; i < 90; i++) {
        put(cache, BlockKey.of("m", i), CacheOptions.of(BlockCategory.DATA));
        hit(cache, BlockKey.of("m", i));
      }
      assertEquals(90 * ENTRY, cache.prioritySize(CachePriority.MULTI));
      // Ten singles take the cache past its acceptable size: the pass must free multi, over its share.
      for (int i = 0; i < 10; i++) {
        put(cache, BlockKey.of("s", i), CacheOptions.of(BlockCategory.DATA));
      }
      assertTrue(cache.size() <= cache.config().acceptableSize(), "size " + cache.size() + " above acceptable");
      assertTrue(cache.stats().evictedBlockCount() > 0);
      for (int i = 0; i < 10; i++) {
        assertTrue(hit(cache, BlockKey.of("s", i)), "single block " + i + " was evicted before multi ones");
      }
    }
  }

  @Test
  void aBlockPromotedBeforeLaterMultiHitsIsEvictedFirst() {
    // HBase orders multi blocks by their last access: a block promoted before the other multi blocks' last hits is
    // the least recently used of them. Its link must join the multi list when it is promoted, not when a pass
    // meets it in the single list (behind singles inserted before it), where it outlived every other multi block.
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(100 * ENTRY).build())) {
      CacheOptions data = CacheOptions.of(BlockCategory.DATA);
      for (int i = 0; i < 60; i++) {
        put(cache, BlockKey.of("x", i), data);
        hit(cache, BlockKey.of("x", i));
      }
      for (int i = 0; i < 39; i++) {
        put(cache, BlockKey.of("s", i), data);
      }
      BlockKey promotedFirst = BlockKey.of("a", 0);
      put(cache, promotedFirst, data); // the first pass: the multi list gives its oldest three
      long evicted = cache.stats().evictedBlockCount();
      assertTrue(evicted > 0, "no pass ran");
      assertTrue(hit(cache, promotedFirst));
      for (int i = 0; i < 60; i++) {
        hit(cache, BlockKey.of("x", i));
      }
      for (int i = 0; cache.stats().evictedBlockCount() == evicted; i++) {
        put(cache, BlockKey.of("fill", i), data);
      }
      ReadOptions peek = ReadOptions.of(BlockCategory.DATA).withoutStats();
      assertNull(cache.getBlock(promotedFirst, peek), "the least recently used multi block outlived the others");
      assertTrue(hit(cache, BlockKey.of("x", 59)));
    }
  }

  @Test
  void recentlyUsedMultiBlocksSurviveOlderOnes() {
    long capacity = 100 * ENTRY;
    try (LruBlockCache cache = new LruBlockCache(
        LruConfig.builder(capacity).priorityShares(0.1f, 0.8f, 0.1f).build())) {
      for (int i = 0; i < 90; i++) {
        put(cache, BlockKey.of("m", i), CacheOptions.of(BlockCategory.DATA));
        hit(cache, BlockKey.of("m", i));
      }
      // Second hits on the last 30 set their reference bits; the first 60 were not touched since promotion.
      for (int i = 60; i < 90; i++) {
        hit(cache, BlockKey.of("m", i));
      }
      for (int i = 0; i < 20; i++) {
        put(cache, BlockKey.of("new", i), CacheOptions.of(BlockCategory.DATA));
        hit(cache, BlockKey.of("new", i));
      }
      for (int i = 60; i < 90; i++) {
        assertTrue(hit(cache, BlockKey.of("m", i)), "recently used block " + i + " was evicted");
      }
      assertNull(cache.getBlock(BlockKey.of("m", 0), ReadOptions.of(BlockCategory.DATA).withoutStats()));
    }
  }

  @Test
  void inMemoryForceModeEvictsSingleAndMultiFirst() {
    long capacity = 100 * ENTRY;
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(capacity).inMemoryForceMode(true).build())) {
      for (int i = 0; i < 70; i++) {
        put(cache, BlockKey.of("mem", i), CacheOptions.inMemory(BlockCategory.DATA));
      }
      for (int i = 0; i < 60; i++) {
        put(cache, BlockKey.of("single", i), CacheOptions.of(BlockCategory.DATA));
      }
      for (int i = 0; i < 70; i++) {
        assertTrue(hit(cache, BlockKey.of("mem", i)), "in-memory block " + i + " was evicted");
      }
      assertEquals(70 * ENTRY, cache.prioritySize(CachePriority.MEMORY));
    }
  }

  @Test
  void withoutForceModeMemoryBlocksBeyondTheirShareAreEvicted() {
    long capacity = 100 * ENTRY;
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(capacity).build())) {
      for (int i = 0; i < 130; i++) {
        put(cache, BlockKey.of("mem", i), CacheOptions.inMemory(BlockCategory.DATA));
      }
      assertTrue(cache.stats().evictedBlockCount() > 0);
      assertTrue(cache.size() <= capacity);
    }
  }

  @Test
  void insertsAreRefusedAtTheHardLimitWhileEvictionLags() throws Exception {
    long capacity = 100 * ENTRY;
    CountDownLatch evictorMayRun = new CountDownLatch(1);
    LruBlockCache cache = new LruBlockCache(LruConfig.builder(capacity).build());
    cache.start(r -> new Thread(() -> {
      try {
        evictorMayRun.await();
      } catch (InterruptedException e) {
        return;
      }
      r.run();
    }, "stalled-evictor"));
    try {
      int cached = 0;
      CacheResult last = null;
      for (int i = 0; i < 200; i++) {
        last = put(cache, BlockKey.of("f", i), CacheOptions.of(BlockCategory.DATA));
        if (last == CacheResult.CACHED) {
          cached++;
        } else {
          break;
        }
      }
      assertEquals(CacheResult.OVER_CAPACITY, last);
      long hardLimit = (long) (capacity * 0.99 * 1.2);
      assertEquals(hardLimit / ENTRY, cached);
      assertTrue(cache.size() <= hardLimit);
      assertEquals(1, cache.stats().failedInsertionCount());
      evictorMayRun.countDown();
      cache.runEviction();
      assertTrue(cache.size() <= (long) (capacity * 0.95));
      assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("g", 0), CacheOptions.of(BlockCategory.DATA)));
    } finally {
      evictorMayRun.countDown();
      cache.close();
    }
  }

  @Test
  void evictionOfABlockHeldByAReaderKeepsTheReadersBytes() {
    long capacity = 10 * ENTRY;
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(capacity).build())) {
      BlockKey first = BlockKey.of("f", 0);
      put(cache, first, CacheOptions.of(BlockCategory.DATA));
      ByteBuf held = cache.getBlock(first, ReadOptions.of(BlockCategory.DATA));
      assertNotNull(held);
      for (int i = 1; i < 40; i++) {
        put(cache, BlockKey.of("g", i), CacheOptions.of(BlockCategory.DATA));
      }
      Blocks.verify(first, BLOCK, held);
      held.release();
    }
  }
}
