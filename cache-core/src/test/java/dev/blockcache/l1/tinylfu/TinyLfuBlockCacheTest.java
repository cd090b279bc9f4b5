package dev.blockcache.l1.tinylfu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.l1.Insert;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** TinyLfuBlockCache behaviour beyond the shared contract. */
class TinyLfuBlockCacheTest {
  private static CacheResult put(TinyLfuBlockCache cache, BlockKey key, Insert insert) {
    ByteBuf source = Blocks.payload(key, 4096);
    if (insert == Insert.HAND_OVER) {
      return cache.handOver(key, source, CacheOptions.of(BlockCategory.DATA));
    }
    try {
      return cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA));
    } finally {
      source.release();
    }
  }

  @ParameterizedTest
  @EnumSource(Insert.class)
  void cachingAPresentKeyAgainCountsAsARead(Insert insert) {
    try (TinyLfuBlockCache cache = new TinyLfuBlockCache(TinyLfuConfig.of(100 * 8192L, 65536, 4096))) {
      BlockKey a = BlockKey.of("f", 0);
      BlockKey b = BlockKey.of("f", 1);
      BlockKey c = BlockKey.of("f", 2);
      for (BlockKey key : List.of(a, b, c)) {
        assertEquals(CacheResult.CACHED, put(cache, key, insert));
      }
      List<BlockKey> before = cache.coldest(3);
      assertTrue(before.indexOf(a) < before.indexOf(b), "a, cached first, is evicted before b: " + before);
      assertEquals(CacheResult.ALREADY_CACHED, put(cache, a, insert));
      List<BlockKey> after = cache.coldest(3);
      assertTrue(after.indexOf(b) < after.indexOf(a), "re-caching a did not count as a read: " + after);
      assertEquals(0, cache.stats().hitCount(), "a read for the policy, not a hit");
    }
  }
}
