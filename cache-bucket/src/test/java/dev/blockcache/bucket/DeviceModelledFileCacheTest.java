package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.engine.ChannelIo;
import dev.blockcache.bucket.engine.device.DeviceModelIo;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hbase.bucketcache.file.device.model} reaches the file engine and leaves the bytes served unchanged. */
class DeviceModelledFileCacheTest {
  @TempDir
  Path dir;

  @Test
  void anNvmeModelledCacheServesVerifiedBlocks() {
    var config = BucketCaches.config("file:" + dir.resolve("cache.bin"), 16L << 20).deviceModel("nvme").build();
    assertTrue(BucketCache.fileEngineOptions(config).io() instanceof DeviceModelIo);
    assertEquals(ChannelIo.PLAIN,
        BucketCache.fileEngineOptions(BucketCaches.config("file:/x", 16L << 20).build()).io(), "off by default");
    try (BucketCache cache = BucketCaches.create(config)) {
      for (int i = 0; i < 20; i++) {
        BlockKey key = BlockKey.of("f", i);
        ByteBuf source = Blocks.payload(key, 3000 + i);
        assertEquals(CacheResult.CACHED, cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA)));
        source.release();
      }
      BucketCaches.drain(cache);
      for (int i = 0; i < 20; i++) {
        BlockKey key = BlockKey.of("f", i);
        ByteBuf block = cache.getBlock(key, ReadOptions.of(BlockCategory.DATA));
        assertNotNull(block);
        Blocks.verify(key, 3000 + i, block);
        block.release();
      }
      assertEquals(20, cache.metrics().engine().reads());
    }
  }
}
