package dev.blockcache.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.config.LruConfig;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.function.Supplier;
import javax.management.AttributeNotFoundException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BlockCacheMetricsBeanTest {
  private final LruBlockCache cache = new LruBlockCache(LruConfig.builder(4L << 20).build());

  @AfterEach
  void close() {
    cache.close();
  }

  @Test
  void aSingleCacheIsTheL1SetAndTheL2SetReadsZero() throws Exception {
    BlockKey key = BlockKey.of("f", 0);
    ByteBuf source = Blocks.payload(key, 100);
    cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.BLOOM));
    source.release();
    cache.getBlock(key, ReadOptions.of(BlockCategory.BLOOM)).release();
    BlockCacheMetricsBean bean = new BlockCacheMetricsBean(cache, Map.of("answer", () -> 42));
    assertEquals(1.0, bean.getAttribute("l1CacheHitCount"));
    assertEquals(1.0, bean.getAttribute("l1CacheHitRatio"));
    assertEquals(1.0, bean.getAttribute("bloomBlockHitCount"));
    assertEquals(0.0, bean.getAttribute("l2CacheHitCount"));
    assertEquals(0.0, bean.getAttribute("l2CacheSize"));
    assertEquals(42.0, bean.getAttribute("answer"));
    assertEquals(2, bean.getAttributes(new String[] {"blockCacheCount", "nope", "blockCacheHitCount"}).size());
  }

  @Test
  void anUnknownNameIsNotFoundAndAnExtraCannotShadowABuiltIn() {
    BlockCacheMetricsBean bean = new BlockCacheMetricsBean(cache, Map.of());
    assertThrows(AttributeNotFoundException.class, () -> bean.getAttribute("blockCacheHits"));
    Map<String, Supplier<Number>> shadow = Map.of("blockCacheHitCount", () -> 0);
    assertThrows(IllegalArgumentException.class, () -> new BlockCacheMetricsBean(cache, shadow));
  }
}
