package dev.blockcache.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.config.ConfigException;
import dev.blockcache.hbase.testing.BytesCacheable;
import dev.blockcache.hbase.testing.TestCaches;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.CacheStats;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The adapter's own contract, with a test {@link Cacheable}: bytes round-trip; a returned block owns one reference
 * of our view (its release unpins the slot, and it stays readable across an eviction until then); HBase's counting
 * rules for {@code caching}, {@code repeat} and {@code updateCacheMetrics}; the iterator and evict-by-file; the
 * configuration read from HBase's {@code Configuration}.
 */
class HBaseL2CacheTest {
  private HBaseL2Cache cache;

  @AfterEach
  void tearDown() {
    if (cache != null) {
      cache.shutdown();
    }
  }

  @Test
  void aReturnedBlockOwnsOneReferenceAndItsReleaseUnpinsTheSlot() throws IOException {
    cache = TestCaches.ours(TestCaches.conf("offheap", 8));
    BlockCacheKey key = new BlockCacheKey("file-a", 4096, true, BlockType.DATA);
    byte[] bytes = bytes(3000, 7);
    cache.cacheBlock(key, new BytesCacheable(bytes));
    TestCaches.drain(cache);

    BytesCacheable block = (BytesCacheable) cache.getBlock(key, true, false, true);
    assertEquals(1, block.refCnt());
    assertEquals(1, cache.l2().metrics().pinnedSlots());
    assertTrue(cache.evictBlock(key));
    assertArrayEquals(bytes, block.bytes(), "a held block stays valid across its eviction");
    assertTrue(block.release());
    assertEquals(0, cache.l2().metrics().pinnedSlots());
    assertNull(cache.getBlock(key, true, false, true));
  }

  @Test
  void aBlockWaitingForItsWriterIsServedAsAHeapCopy() throws IOException {
    cache = TestCaches.ours(TestCaches.conf("offheap", 8));
    BlockCacheKey key = new BlockCacheKey("file-b", 0);
    byte[] bytes = bytes(500, 3);
    cache.cacheBlock(key, new BytesCacheable(bytes), false, true);
    Cacheable block = cache.getBlock(key, true, false, true);
    if (block != null) { // the writer may already have moved it to its slot: then it is a view, released here
      assertArrayEquals(bytes, ((BytesCacheable) block).bytes());
      block.release();
    }
    TestCaches.drain(cache);
    assertEquals(0, cache.l2().metrics().pinnedSlots());
  }

  @Test
  void countsAsHBaseDefines() throws IOException {
    cache = TestCaches.ours(TestCaches.conf("offheap", 8));
    CacheStats stats = cache.getStats();
    BlockCacheKey index = new BlockCacheKey("file-c", 0, false, BlockType.LEAF_INDEX);
    assertNull(cache.getBlock(index, true, false, true));
    assertNull(cache.getBlock(index, true, true, true)); // a repeat: its miss was counted already
    assertNull(cache.getBlock(index, false, false, false)); // not counted at all
    assertEquals(1, stats.getMissCount());
    assertEquals(1, stats.getMissCachingCount());
    assertEquals(1, stats.getLeafIndexMissCount());
    assertEquals(0, stats.getPrimaryMissCount());

    BlockCacheKey data = new BlockCacheKey("file-c", 8192, true, BlockType.DATA);
    cache.cacheBlock(data, new BytesCacheable(bytes(100, 1)));
    TestCaches.drain(cache);
    Cacheable hit = cache.getBlock(data, false, false, true);
    hit.release();
    Cacheable uncounted = cache.getBlock(data, true, false, false);
    uncounted.release();
    assertEquals(1, stats.getHitCount());
    assertEquals(0, stats.getHitCachingCount());
    assertEquals(1, stats.getDataHitCount());
    assertEquals(1, stats.getPrimaryHitCount());
    assertEquals(1, cache.getBlockCount());
    assertEquals(1, cache.getDataBlockCount());
    assertTrue(cache.getCurrentSize() > 100 && cache.getFreeSize() < cache.getMaxSize());
  }

  @Test
  void theIteratorListsRealEntriesAndEvictByFileRemovesThem() throws IOException {
    cache = TestCaches.ours(TestCaches.conf("offheap", 8));
    for (int i = 0; i < 10; i++) {
      cache.cacheBlock(new BlockCacheKey(i < 6 ? "file-d" : "file-e", i * 1000L), new BytesCacheable(bytes(200, i)),
          i == 0, true);
    }
    TestCaches.drain(cache);
    List<String> listed = new ArrayList<>();
    for (CachedBlock b : cache) {
      listed.add(b.getFilename() + "@" + b.getOffset() + ":" + b.getBlockPriority());
      assertEquals(BlockType.DATA, b.getBlockType());
      assertTrue(b.getSize() > 200);
    }
    assertEquals(10, listed.size());
    assertTrue(listed.contains("file-d@0:MEMORY"), listed.toString());
    assertTrue(listed.contains("file-e@9000:SINGLE"), listed.toString());
    assertEquals(6, cache.evictBlocksByHfileName("file-d"));
    assertEquals(4, cache.getBlockCount());
    assertNull(cache.getBlockCaches());
  }

  @Test
  void theConfigurationIsTheOperatorsBucketCacheKeys() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.bucketcache.size", "8");
    ConfigException e = assertThrows(ConfigException.class, () -> new HBaseL2Cache(conf));
    assertTrue(e.getMessage().contains("hbase.bucketcache.ioengine"), e.getMessage());

    conf.set("hbase.bucketcache.ioengine", "offheap");
    conf.set("hbase.bucketcache.writer.threads", "2");
    conf.set("hbase.rs.cacheblocksonwrite", "true");
    Map<String, String> taken = L2SiteConfig.operatorValues(conf);
    assertEquals(Map.of("hbase.bucketcache.size", "8", "hbase.bucketcache.ioengine", "offheap",
        "hbase.bucketcache.writer.threads", "2"), taken, "HBase's defaults and other keys are not ours");
    assertEquals(2, L2SiteConfig.read(conf).writerThreads());
    conf.set("hbase.bucketcache.writer.threads", "many");
    ConfigException bad = assertThrows(ConfigException.class, () -> L2SiteConfig.read(conf));
    assertTrue(bad.getMessage().contains("hbase.bucketcache.writer.threads"), bad.getMessage());
  }

  @Test
  void aLiveConfigurationChangeIsReportedNotApplied() throws IOException {
    Configuration conf = TestCaches.conf("offheap", 8);
    cache = new HBaseL2Cache(conf);
    long capacity = cache.getMaxSize();
    Configuration changed = new Configuration(conf);
    changed.set("hbase.bucketcache.acceptfactor", "0.9");
    cache.onConfigurationChange(changed);
    assertEquals(capacity, cache.getMaxSize());
    assertFalse(cache.getStats().toString().isEmpty());
  }

  private static byte[] bytes(int length, int seed) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (i * 31 + seed);
    }
    return b;
  }
}
