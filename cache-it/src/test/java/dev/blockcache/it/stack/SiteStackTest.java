package dev.blockcache.it.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.combined.CombinedBlockCache;
import dev.blockcache.config.ConfigException;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.l1.tinylfu.TinyLfuBlockCache;
import dev.blockcache.stack.BlockCacheFactory;
import dev.blockcache.testing.Blocks;
import dev.blockcache.testing.SiteXml;
import io.netty.buffer.ByteBuf;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real hbase-site.xml files, built into caches by {@link BlockCacheFactory} and used as a storage engine would: index
 * and bloom blocks land in the L1, data blocks in the L2, each tier counts its own hits.
 */
class SiteStackTest {
  @TempDir
  Path dir;

  private Path site(String... nameValues) throws Exception {
    return SiteXml.write(dir.resolve("hbase-site.xml"), nameValues);
  }

  private static void cacheAndRead(BlockCache cache, BlockKey key, BlockCategory category, int length) {
    ByteBuf source = Blocks.payload(key, length);
    try {
      assertEquals(CacheResult.CACHED, cache.cacheBlock(key, source, CacheOptions.of(category)));
    } finally {
      source.release();
    }
    if (cache instanceof CombinedBlockCache combinedBlockCache && category == BlockCategory.DATA) {
      try {
        assertTrue(((BucketCache) combinedBlockCache.l2()).awaitWritten(Duration.ofSeconds(30)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    ByteBuf block = cache.getBlock(key, ReadOptions.of(category));
    assertNotNull(block, key + " missed");
    try {
      Blocks.verify(key, length, block);
    } finally {
      block.release();
    }
  }

  private void usesBothTiers(Path file) throws Exception {
    try (BlockCache cache = BlockCacheFactory.fromSite(file).orElseThrow()) {
      CombinedBlockCache combined = assertInstanceOf(CombinedBlockCache.class, cache);
      assertInstanceOf(LruBlockCache.class, combined.l1());
      assertInstanceOf(BucketCache.class, combined.l2());
      cacheAndRead(cache, BlockKey.of("hfile-1", 0), BlockCategory.INDEX, 2000);
      cacheAndRead(cache, BlockKey.of("hfile-1", 2000), BlockCategory.BLOOM, 1000);
      for (int i = 0; i < 20; i++) {
        cacheAndRead(cache, BlockKey.of("hfile-1", 10_000 + i * 65_536L), BlockCategory.DATA, 64 * 1024);
      }
      assertEquals(2, combined.l1Stats().hitCount());
      assertEquals(20, combined.l2Stats().hitCount());
      assertEquals(22, cache.stats().hitCount());
      assertEquals(22, cache.evictBlocksByFile("hfile-1"));
      assertEquals(0, cache.blockCount());
    }
  }

  @Test
  void anOffheapStackLikeThePublishedOne() throws Exception {
    usesBothTiers(site("hfile.block.cache.size", "0.2", "hbase.bucketcache.ioengine", "offheap",
        "hbase.bucketcache.size", "16"));
  }

  @Test
  void theStacksFiguresReadThroughARealMBeanServerUnderHBasesNames() throws Exception {
    Path file = site("hbase.bucketcache.ioengine", "offheap", "hbase.bucketcache.size", "16");
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = new ObjectName("dev.blockcache:type=BlockCache,name=SiteStackTest");
    try (BlockCache cache = BlockCacheFactory.fromSite(file).orElseThrow()) {
      AutoCloseable registration = BlockCacheFactory.metricsBean(cache).register(server, name);
      cacheAndRead(cache, BlockKey.of("f", 0), BlockCategory.INDEX, 1000);
      cacheAndRead(cache, BlockKey.of("f", 1000), BlockCategory.DATA, 4000);
      cacheAndRead(cache, BlockKey.of("f", 5000), BlockCategory.DATA, 4000);
      assertNull(cache.getBlock(BlockKey.of("f", 9000), ReadOptions.of(BlockCategory.DATA)));
      assertEquals(3L, server.getAttribute(name, "blockCacheHitCount"));
      assertEquals(1L, server.getAttribute(name, "blockCacheMissCount"));
      assertEquals(75.0, (Double) server.getAttribute(name, "blockCacheCountHitPercent"), 1e-9);
      assertEquals(1.0, server.getAttribute(name, "l1CacheHitRatio"));
      assertEquals(2.0 / 3, (Double) server.getAttribute(name, "l2CacheHitRatio"), 1e-9);
      assertEquals(2L, server.getAttribute(name, "l2CacheCount"));
      assertEquals(2L, server.getAttribute(name, "blockCacheDataBlockCount"));
      assertEquals(1L, server.getAttribute(name, "dataBlockMissCount"));
      // The index's preallocated table over 2 entries: large here, a few tens of bytes at a million (L2HeapPerEntry).
      double perEntry = (Double) server.getAttribute(name, "l2IndexHeapBytesPerEntry");
      assertTrue(perEntry > 0, "index heap per entry " + perEntry);
      assertEquals(0L, server.getAttribute(name, "l2ChecksumFailureCount"));
      assertEquals(0L, server.getAttribute(name, "l2WriterQueueDepth"));
      assertInstanceOf(Long.class, server.getAttribute(name, "blockCacheSize"));
      assertInstanceOf(Double.class, server.getAttribute(name, "l2AllocatorUtilisation"));
      registration.close();
    }
    assertFalse(server.isRegistered(name));
  }

  @Test
  void aFileStack() throws Exception {
    usesBothTiers(site("hbase.bucketcache.ioengine", "file:" + dir.resolve("l2.cache"),
        "hbase.bucketcache.size", "16"));
  }

  @Test
  void aStripedFilesStack() throws Exception {
    usesBothTiers(site("hbase.bucketcache.ioengine",
        "files:" + dir.resolve("a.cache") + "," + dir.resolve("b.cache"), "hbase.bucketcache.size", "16"));
  }

  @Test
  void aTinyLfuL1AloneWhenNoEngineIsSet() throws Exception {
    try (BlockCache cache = BlockCacheFactory.fromSite(site("hfile.block.cache.policy", "TinyLFU",
        "hfile.block.cache.memory.size", "8m")).orElseThrow()) {
      assertInstanceOf(TinyLfuBlockCache.class, cache);
      assertEquals(8L << 20, cache.capacity());
      assertTrue(maintenanceThreadRuns(), "the factory's TinyLFU has no maintenance thread");
      cacheAndRead(cache, BlockKey.of("f", 0), BlockCategory.INDEX, 1000);
    }
  }

  private static boolean maintenanceThreadRuns() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.isAlive() && t.getName().equals("tinylfu-maintenance"));
  }

  @Test
  void aDisabledBlockCacheBuildsNothing() throws Exception {
    assertFalse(BlockCacheFactory.fromSite(site("hfile.block.cache.size", "0")).isPresent());
  }

  /** {@code fromSite(...).orElseThrow()} gave a bare NoSuchElementException; this names the key and the value. */
  @Test
  void fromSiteRequiredSaysWhichValueDisablesTheCache() throws Exception {
    ConfigException e = assertThrows(ConfigException.class,
        () -> BlockCacheFactory.fromSiteRequired(site("hfile.block.cache.size", "0")));
    assertEquals("hfile.block.cache.size", e.key());
    assertEquals("0", e.value());
    assertTrue(e.getMessage().contains("disables the block cache"), e.getMessage());
  }

  @Test
  void anUnknownEngineSchemeIsAnErrorNamingTheKey() throws Exception {
    Path file = site("hbase.bucketcache.ioengine", "tape:/dev/st0", "hbase.bucketcache.size", "16");
    ConfigException e = assertThrows(ConfigException.class, () -> BlockCacheFactory.fromSite(file));
    assertEquals("hbase.bucketcache.ioengine", e.key());
    assertTrue(e.getMessage().contains("tape:/dev/st0"), e.getMessage());
  }

  @Test
  void anL2SmallerThanOneBucketIsAnErrorNamingTheSize() throws Exception {
    Path file = site("hbase.bucketcache.ioengine", "offheap", "hbase.bucketcache.size", "1");
    ConfigException e = assertThrows(ConfigException.class, () -> BlockCacheFactory.fromSite(file));
    assertEquals("hbase.bucketcache.size", e.key());
  }

  @Test
  void malformedXmlIsAnErrorNamingTheFile() throws Exception {
    Path file = dir.resolve("hbase-site.xml");
    Files.writeString(file, "<configuration><property><name>x</name></configuration>");
    ConfigException e = assertThrows(ConfigException.class, () -> BlockCacheFactory.fromSite(file));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }
}
