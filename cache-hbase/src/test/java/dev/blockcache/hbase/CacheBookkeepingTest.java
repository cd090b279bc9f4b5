package dev.blockcache.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.hbase.testing.BytesCacheable;
import dev.blockcache.hbase.testing.TestCaches;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase 2.6's bookkeeping as our L2 keeps it on insert and eviction: bytes per region equal, at every step, the bytes
 * of the blocks the L2 holds per region (its own listing of its blocks, each file mapped to the region of its path),
 * through inserts, evictions for room, evict-by-file, evict-by-range and a region's eviction; the fully cached files
 * prefetch reports; blocks restored from a checkpoint, counted per file at start and per region once it opens.
 */
class CacheBookkeepingTest {
  private static final String[] REGIONS = {"0a1b2c", "3d4e5f", "6a7b8c"};
  private static final int FILES_PER_REGION = 3;
  private static final int BLOCK = 3000;

  private HBaseL2Cache cache;
  private final Map<String, String> regionOfFile = new HashMap<>();

  @AfterEach
  void tearDown() {
    if (cache != null) {
      cache.shutdown();
    }
  }

  @Test
  void regionBytesEqualTheBytesTheL2HoldsPerRegionThroughEveryKindOfEviction() throws IOException {
    cache = TestCaches.ours(TestCaches.conf("offheap", 8));
    // 9 files of 400 blocks of about 3 KB: about 11 MB offered to an 8 MB L2, so it evicts for room.
    for (int block = 0; block < 400; block++) {
      for (String region : REGIONS) {
        for (int f = 0; f < FILES_PER_REGION; f++) {
          cache.cacheBlock(key(region, f, block), new BytesCacheable(new byte[BLOCK]), false, true);
        }
      }
    }
    TestCaches.drain(cache);
    assertTrue(cache.getStats().getEvictedCount() > 0, "the L2 evicted no block for room");
    assertEquals(heldPerRegion(), cache.getRegionCachedInfo().orElseThrow(), "after inserts and evictions");

    String file = fileName(REGIONS[0], 0);
    assertTrue(cache.evictBlocksByHfileName(file) > 0);
    assertEquals(0, cache.cachedBytesOfFile(file));
    assertEquals(heldPerRegion(), cache.getRegionCachedInfo().orElseThrow(), "after evict-by-file");

    for (int block = 0; block < 100; block++) { // a file whose blocks are all held, then split in two
      cache.cacheBlock(key(REGIONS[1], FILES_PER_REGION, block), new BytesCacheable(new byte[BLOCK]), false, true);
    }
    TestCaches.drain(cache);
    String split = fileName(REGIONS[1], FILES_PER_REGION);
    long lowHalf = offset(50);
    int evicted = cache.evictBlocksRangeByHfileName(split, 0, lowHalf - 1);
    assertTrue(evicted > 0, "the range held no block");
    assertEquals(0, blocksOf(split, 0, lowHalf), "blocks of the evicted half remain");
    assertTrue(blocksOf(split, lowHalf, Long.MAX_VALUE) > 0, "the other half went too");
    assertEquals(heldPerRegion(), cache.getRegionCachedInfo().orElseThrow(), "after evict-by-range");

    String kept = fileName(REGIONS[2], 2);
    assertTrue(cache.evictBlocksOfRegion(REGIONS[2], Set.of(kept)) > 0);
    assertTrue(cache.cachedBytesOfFile(kept) > 0, "a file still in use was evicted with its region");
    assertEquals(0, cache.cachedBytesOfFile(fileName(REGIONS[2], 0)));
    assertEquals(heldPerRegion(), cache.getRegionCachedInfo().orElseThrow(), "after a region's eviction");
  }

  @Test
  void restoredBlocksAreCountedPerFileAndJoinTheirRegionOnceItIsKnown(@TempDir java.nio.file.Path dir)
      throws IOException {
    Configuration conf = TestCaches.conf("file:" + dir.resolve("cache"), 8);
    conf.set("hbase.bucketcache.persistent.path", dir.resolve("index").toString());
    cache = TestCaches.ours(conf);
    for (int block = 0; block < 50; block++) {
      for (String region : REGIONS) {
        cache.cacheBlock(key(region, 0, block), new BytesCacheable(new byte[BLOCK]), false, true);
      }
    }
    TestCaches.drain(cache);
    Map<String, Long> held = heldPerRegion();
    cache.shutdown();

    cache = TestCaches.ours(conf);
    assertEquals(held, heldPerRegion(), "restored");
    assertTrue(cache.getRegionCachedInfo().orElseThrow().isEmpty(), "regions are not known before they open");
    List<Path> paths = new ArrayList<>();
    for (String region : REGIONS) {
      assertTrue(cache.cachedBytesOfFile(fileName(region, 0)) > 0);
      paths.add(path(region, 0));
    }
    cache.learnRegionsOf(paths);
    assertEquals(held, cache.getRegionCachedInfo().orElseThrow());
  }

  @Test
  void aFileIsFullyCachedWhileTheL2HoldsAllItsDataBlocks() throws IOException {
    cache = TestCaches.ours(TestCaches.conf("offheap", 8));
    for (int block = 0; block < 10; block++) {
      cache.cacheBlock(key(REGIONS[0], 0, block), new BytesCacheable(new byte[BLOCK]), false, true);
    }
    Path path = path(REGIONS[0], 0);
    cache.notifyFileCachingCompleted(path, 12, 11, 40_000);
    assertFalse(cache.getFullyCachedFiles().orElseThrow().containsKey(path.getName()), "one data block is missing");
    cache.notifyFileCachingCompleted(path, 11, 10, 40_000);
    assertEquals(REGIONS[0], cache.getFullyCachedFiles().orElseThrow().get(path.getName()).getFirst());

    assertTrue(cache.evictBlock(key(REGIONS[0], 0, 3)));
    assertFalse(cache.getFullyCachedFiles().orElseThrow().containsKey(path.getName()), "still listed after eviction");
  }

  private BlockCacheKey key(String region, int file, int block) {
    Path path = path(region, file);
    regionOfFile.put(path.getName(), region);
    return new BlockCacheKey(path, offset(block), true, BlockType.DATA);
  }

  private static Path path(String region, int file) {
    return new Path("/hbase/data/default/t/" + region + "/f/" + fileName(region, file));
  }

  private static String fileName(String region, int file) {
    return "hfile" + file + region;
  }

  private static long offset(int block) {
    return (long) block * (BLOCK + 33);
  }

  /** Stored bytes per region of the blocks the L2 lists now. */
  private Map<String, Long> heldPerRegion() {
    Map<String, Long> held = new HashMap<>();
    for (Iterator<CachedBlock> it = cache.iterator(); it.hasNext(); ) {
      CachedBlock block = it.next();
      held.merge(regionOfFile.get(block.getFilename()), block.getSize(), Long::sum);
    }
    return held;
  }

  private long blocksOf(String file, long from, long to) {
    long n = 0;
    for (Iterator<CachedBlock> it = cache.iterator(); it.hasNext(); ) {
      CachedBlock block = it.next();
      if (block.getFilename().equals(file) && block.getOffset() >= from && block.getOffset() < to) {
        n++;
      }
    }
    return n;
  }
}
