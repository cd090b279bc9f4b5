package dev.blockcache.jmh.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.engine.ChannelIo;
import dev.blockcache.bucket.engine.FileEngineOptions;
import dev.blockcache.bucket.engine.IoEngineRegistry;
import dev.blockcache.bucket.engine.PageCache;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A device model injected through {@link FileEngineOptions} reaches the file engine and leaves the bytes served unchanged. */
class DeviceModelledFileCacheTest {
  @TempDir
  Path dir;

  @Test
  void anNvmeModelledCacheServesVerifiedBlocks() throws Exception {
    var config = BucketCacheConfig.builder("file:" + dir.resolve("cache.bin"), 16L << 20).build();
    ChannelIo nvme = DeviceModelIo.wrap(ChannelIo.PLAIN, "nvme");
    assertTrue(nvme instanceof DeviceModelIo);
    try (BucketCache cache = BucketCache.create(config,
        IoEngineRegistry.withBuiltins(new FileEngineOptions(PageCache.USED, nvme)))) {
      for (int i = 0; i < 20; i++) {
        BlockKey key = BlockKey.of("f", i);
        ByteBuf source = Blocks.payload(key, 3000 + i);
        assertEquals(CacheResult.CACHED, cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA)));
        source.release();
      }
      assertTrue(cache.awaitWritten(Duration.ofMinutes(1)));
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
