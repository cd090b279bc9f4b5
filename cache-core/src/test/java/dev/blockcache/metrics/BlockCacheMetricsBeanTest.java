package dev.blockcache.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.config.LruConfig;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import javax.management.AttributeNotFoundException;
import javax.management.MBeanAttributeInfo;
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
    BlockCacheMetricsBean bean = new BlockCacheMetricsBean(cache, Map.of("answer", () -> 42),
        Map.of("half", () -> 0.5));
    assertEquals(1L, bean.getAttribute("l1CacheHitCount"));
    assertEquals(1.0, bean.getAttribute("l1CacheHitRatio"));
    assertEquals(1L, bean.getAttribute("bloomBlockHitCount"));
    assertEquals(0L, bean.getAttribute("l2CacheHitCount"));
    assertEquals(0L, bean.getAttribute("l2CacheSize"));
    assertEquals(0.0, bean.getAttribute("l2CacheHitRatio"));
    assertEquals(42L, bean.getAttribute("answer"));
    assertEquals(0.5, bean.getAttribute("half"));
    assertEquals(2, bean.getAttributes(new String[] {"blockCacheCount", "nope", "blockCacheHitCount"}).size());
  }

  @Test
  void anUnknownNameIsNotFoundAndAnExtraCannotShadowABuiltIn() {
    BlockCacheMetricsBean bean = new BlockCacheMetricsBean(cache, Map.of(), Map.of());
    assertThrows(AttributeNotFoundException.class, () -> bean.getAttribute("blockCacheHits"));
    Map<String, LongSupplier> shadow = Map.of("blockCacheHitCount", () -> 0);
    assertThrows(IllegalArgumentException.class, () -> new BlockCacheMetricsBean(cache, shadow, Map.of()));
    Map<String, DoubleSupplier> shadowRatio = Map.of("l1CacheHitRatio", () -> 0);
    assertThrows(IllegalArgumentException.class, () -> new BlockCacheMetricsBean(cache, Map.of(), shadowRatio));
  }

  @Test
  void countsAndSizesAreLongsAndRatiosAndPercentsAreDoublesAsInHBase() {
    BlockCacheMetricsBean bean = new BlockCacheMetricsBean(cache, Map.of(), Map.of());
    for (MBeanAttributeInfo info : bean.getMBeanInfo().getAttributes()) {
      String name = info.getName();
      boolean ratio = name.endsWith("Ratio") || name.endsWith("Percent");
      assertTrue(ratio || name.endsWith("Count") || name.endsWith("Size"), name + " is neither a count nor a ratio");
      assertEquals(ratio ? "double" : "long", info.getType(), name);
    }
  }
}
