package dev.blockcache.combined;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.config.LruConfig;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CombinedBlockCacheTest {
  private final LruBlockCache l1 = new LruBlockCache(LruConfig.builder(4L << 20).build());
  private final LruBlockCache l2 = new LruBlockCache(LruConfig.builder(8L << 20).build());
  private final CombinedBlockCache cache = new CombinedBlockCache(l1, l2);

  @AfterEach
  void close() {
    cache.close();
  }

  private CacheResult put(BlockKey key, BlockCategory category) {
    ByteBuf source = Blocks.payload(key, 1000);
    try {
      return cache.cacheBlock(key, source, CacheOptions.of(category));
    } finally {
      source.release();
    }
  }

  @Test
  void dataBlocksLiveInTheL2AndEveryOtherCategoryInTheL1() {
    for (BlockCategory category : BlockCategory.values()) {
      BlockKey key = BlockKey.of("f", category.ordinal() * 1000L);
      assertEquals(CacheResult.CACHED, put(key, category));
      LruBlockCache home = category == BlockCategory.DATA ? l2 : l1;
      LruBlockCache other = home == l1 ? l2 : l1;
      assertSame(home, cache.tierOf(category));
      ByteBuf there = home.getBlock(key, ReadOptions.of(category).withoutStats());
      assertNotNull(there, category + " not in its tier");
      there.release();
      assertNull(other.getBlock(key, ReadOptions.of(category).withoutStats()), category + " in the other tier");
    }
    assertEquals(1, l2.blockCount());
    assertEquals(BlockCategory.COUNT - 1, l1.blockCount());
  }

  @Test
  void aGetLooksOnlyInTheTierOfItsCategory() {
    BlockKey key = BlockKey.of("f", 0);
    put(key, BlockCategory.DATA);
    assertNull(cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX)));
    ByteBuf block = cache.getBlock(key, ReadOptions.of(BlockCategory.DATA));
    Blocks.verify(key, 1000, block);
    block.release();
    assertEquals(1, cache.l1Stats().missCount());
    assertEquals(0, cache.l1Stats().hitCount());
    assertEquals(1, cache.l2Stats().hitCount());
    assertEquals(0, cache.l2Stats().missCount());
    assertEquals(1, cache.stats().hitCount(BlockCategory.DATA));
    assertEquals(1, cache.stats().missCount(BlockCategory.INDEX));
  }

  @Test
  void evictionsReachBothTiersAndTotalsAddUp() {
    put(BlockKey.of("a", 0), BlockCategory.INDEX);
    put(BlockKey.of("a", 1), BlockCategory.DATA);
    put(BlockKey.of("a", 2), BlockCategory.BLOOM);
    put(BlockKey.of("b", 0), BlockCategory.DATA);
    assertEquals(l1.capacity() + l2.capacity(), cache.capacity());
    assertEquals(l1.size() + l2.size(), cache.size());
    assertEquals(4, cache.blockCount());
    assertEquals(3, cache.evictBlocksByFile("a"));
    assertEquals(0, l1.blockCount());
    assertEquals(1, l2.blockCount());
    assertTrue(cache.evictBlock(BlockKey.of("b", 0)));
    assertEquals(0, cache.blockCount());
    assertEquals(l1.stats().capacity() + l2.stats().capacity(), cache.stats().capacity());
  }

  @Test
  void closeClosesBothTiers() {
    BlockKey index = BlockKey.of("f", 0);
    BlockKey data = BlockKey.of("f", 1);
    put(index, BlockCategory.INDEX);
    put(data, BlockCategory.DATA);
    cache.close();
    assertNull(l2.getBlock(data, ReadOptions.of(BlockCategory.DATA)));
    assertNull(l1.getBlock(index, ReadOptions.of(BlockCategory.INDEX)));
    ByteBuf source = Blocks.payload(index, 10);
    try {
      assertEquals(CacheResult.DISABLED, l1.cacheBlock(index, source, CacheOptions.of(BlockCategory.INDEX)));
      assertEquals(CacheResult.DISABLED, l2.cacheBlock(data, source, CacheOptions.of(BlockCategory.DATA)));
    } finally {
      source.release();
    }
  }

  @Test
  void oneCacheCannotBeBothTiers() {
    assertThrows(IllegalArgumentException.class, () -> new CombinedBlockCache(l1, l1));
  }
}
