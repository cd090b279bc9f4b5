package dev.blockcache.sizing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.engine.CacheFileHeader;
import dev.blockcache.config.ConfigException;
import dev.blockcache.config.L1Policy;
import dev.blockcache.testing.SiteXml;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sizing report on real hbase-site.xml files, against figures computed by hand in the comments.
 *
 * <p>Constants used throughout: 32 GiB = 2^35 = 34,359,738,368 B; HBase's largest default bucket size is 525,312 B,
 * so a bucket is 4 × 525,312 = 2,101,248 B; a stored 64 KiB block is 24 (fixed header) + 32 (file name) + 65,536 =
 * 65,592 B, which goes into the 66,560 B size class (the one below, 58,368, is too small), 2,101,248 / 66,560 = 31.57
 * → 31 per bucket; the LRU L1 accounts a block as 65,536 + 136 (its entry overhead) = 65,672 B, the TinyLFU L1 as
 * 65,536 + 216 = 65,752 B.
 */
class CacheSizerTest {
  private static final long GIB = 1L << 30;

  @TempDir
  Path dir;

  private Path site(String... nameValues) throws Exception {
    return SiteXml.write(dir.resolve("hbase-site.xml"), nameValues);
  }

  private Path publishedStack() throws Exception {
    return site("hfile.block.cache.size", "0.2", "hbase.bucketcache.ioengine", "offheap",
        "hbase.bucketcache.size", "4096");
  }

  @Test
  void thePublishedStackOnA32GiBHeapAnd128GiBOfRam() throws Exception {
    SizingReport r = CacheSizer.size(publishedStack(), Machine.builder(32 * GIB, 128 * GIB).build());

    // L1: 0.2f = 13,421,773 / 2^26, so 2^35 × 0.2f = 2^9 × 13,421,773 = 6,871,947,776 B exactly. Eviction starts at
    // (long) (6,871,947,776 × 0.99) = 6,803,228,298; 6,803,228,298 / 65,672 = 103,594 blocks (65,672 × 103,594 =
    // 6,803,225,168, remainder 3,130).
    L1Fit l1 = r.l1().orElseThrow();
    assertEquals(L1Policy.LRU, l1.policy());
    assertEquals(6_871_947_776L, l1.capacityBytes());
    assertEquals(6_803_228_298L, l1.evictionStartBytes());
    assertEquals(65_672, l1.bytesPerBlock());
    assertEquals(103_594, l1.blocks());

    // L2: 4096 MB = 4,294,967,296 B; / 2,101,248 = 2,044.007 → 2,044 buckets = 4,294,950,912 B usable;
    // 2,044 × 31 = 63,364 blocks = 63,364 × 65,536 = 4,152,623,104 B of data.
    L2Fit l2 = r.l2().orElseThrow();
    assertEquals("offheap", l2.scheme());
    assertEquals(4_294_967_296L, l2.configuredBytes());
    assertEquals(2_101_248, l2.bucketBytes());
    assertEquals(2_044, l2.buckets());
    assertEquals(4_294_950_912L, l2.usableBytes());
    assertEquals(65_592, l2.storedBytes());
    assertEquals(66_560, l2.itemBytes());
    assertEquals(31, l2.itemsPerBucket());
    assertEquals(63_364, l2.blocks());
    assertTrue(l2.files().isEmpty());

    // Index: laid out for 4,294,950,912 / 65,536 = 65,535 entries → 63 file groups rounded up to 64 → 512 segments.
    // 63,364 / 512 = 123.8 entries per segment (Poisson, sd 11.1). A segment grows by 5/4 at load 4/5: ..., 121,
    // 151, 188, 235 slots, holding up to 96, 120, 150 and 188 entries: P(K <= 96) ≈ 0.009, P(97..120) ≈ 0.376,
    // P(121..150) ≈ 0.607, P(K > 150) ≈ 0.008, so E[slots] ≈ 1.1 + 56.8 + 114.1 + 1.9 ≈ 173.9.
    // Heap = 16 + 512 × (4 + 136) + 16 × 512 × 173.9 ≈ 1,496,300 B, 23.6 B per block. Asserted within 1%.
    assertEquals(1_496_300, (double) l2.indexHeapBytes(), 1_496_300 * 0.01);
    assertEquals(23.6, l2.indexHeapBytesPerBlock(), 0.3);
    // Writer queues: 3 threads × 64 × 65,536 = 12,582,912 B.
    assertEquals(12_582_912, l2.writerQueueHeapBytes());

    // Heap: 6,871,947,776 + ~1,496,300 + 12,582,912 ≈ 6.89 GB, under (0.8 − 0.4) × 2^35 = 13,743,895,347 B.
    assertEquals(6_871_947_776L + l2.indexHeapBytes() + 12_582_912, r.cacheHeapBytes());
    assertEquals(13_743_895_347.0, (double) r.heapLimitBytes(), 1);
    // Page cache: 128 GiB − 32 GiB − 4,294,950,912 (offheap L2) = 98,784,264,192 B = 71.9% of RAM.
    assertEquals(98_784_264_192L, r.pageCacheBytes());
    assertEquals(0.719, r.pageCacheShareOfRam(), 0.001);
    // Datasets: the L2's data, 4,152,623,104 B, fits; beyond 4,152,623,104 + 98,784,264,192 = 102,936,887,296 B
    // most reads go to the disk.
    assertEquals(4_152_623_104L, r.largestCachedDatasetBytes());
    assertEquals(102_936_887_296L, r.smallestUncachedDatasetBytes());
    assertEquals(List.of(), r.problems());
  }

  @Test
  void theYcsbGuidesL1OnlyServer() throws Exception {
    // 32 GiB heap, 128 GiB RAM, no L2, hfile.block.cache.size=0.4: 0.4f = 13,421,773 / 2^25, so the L1 is
    // 2^10 × 13,421,773 = 13,743,895,552 B; eviction starts at (long) (× 0.99) = 13,606,456,596; / 65,672 = 207,188
    // blocks (65,672 × 207,188 = 13,606,450,336) = 207,188 × 65,536 = 13,578,272,768 B of data. Page cache: 128 − 32 =
    // 96 GiB = 103,079,215,104 B (75% of RAM, the guide's ~96 GB); beyond 116,657,487,872 B the data is on disk.
    SizingReport r = CacheSizer.size(site("hfile.block.cache.size", "0.4"), Machine.builder(32 * GIB, 128 * GIB)
        .build());
    assertEquals(13_743_895_552L, r.l1().orElseThrow().capacityBytes());
    assertEquals(207_188, r.l1().orElseThrow().blocks());
    assertFalse(r.l2().isPresent());
    assertEquals(13_578_272_768L, r.largestCachedDatasetBytes());
    assertEquals(103_079_215_104L, r.pageCacheBytes());
    assertEquals(0.75, r.pageCacheShareOfRam(), 1e-9);
    assertEquals(116_657_487_872L, r.smallestUncachedDatasetBytes());
    // 0.4 of L1 + 0.4 of memstores is exactly HBase's 80%: allowed, whatever the float rounding.
    assertEquals(List.of(), r.problems());
  }

  @Test
  void anOffheapL2LargerThanTheDirectMemoryLimitIsAProblemNamingKeyAndValues() throws Exception {
    SizingReport r = CacheSizer.size(publishedStack(), Machine.builder(32 * GIB, 128 * GIB)
        .directMemory(2 * GIB).build());
    assertEquals(1, r.problems().size(), r.problems().toString());
    String problem = r.problems().get(0);
    assertTrue(problem.contains("hbase.bucketcache.size=4096 MB"), problem);
    assertTrue(problem.contains("hbase.bucketcache.ioengine=offheap"), problem);
    assertTrue(problem.contains("needs 4,294,950,912 bytes (4.00 GiB) of direct memory"), problem);
    assertTrue(problem.contains("limit of 2,147,483,648 bytes (2.00 GiB) (-XX:MaxDirectMemorySize"), problem);
  }

  @Test
  void anL1AndMemstoresAboveEightyPercentOfTheHeapIsRefusedAsHBaseRefusesIt() throws Exception {
    // 0.45 + 0.4 = 0.85 of the heap > 0.8: the site reader refuses it, naming the L1 key and the memstore.
    ConfigException e = assertThrows(ConfigException.class, () -> CacheSizer.size(
        site("hfile.block.cache.size", "0.45"), Machine.builder(32 * GIB, 128 * GIB).build()));
    assertEquals("hfile.block.cache.size", e.key());
    assertTrue(e.getMessage().contains("hbase.regionserver.global.memstore.size=0.4"), e.getMessage());
    // The same L1 with smaller memstores fits.
    SizingReport smaller = CacheSizer.size(site("hfile.block.cache.size", "0.45",
        "hbase.regionserver.global.memstore.size", "0.3"), Machine.builder(32 * GIB, 128 * GIB).build());
    assertEquals(List.of(), smaller.problems());
  }

  @Test
  void theL2IndexAndWriterQueuesCountAgainstTheHeap() throws Exception {
    // The L1 alone is exactly at 40% of the heap; the L2's writer queues (3 × 64 × 64 KiB = 12 MiB) push it over.
    SizingReport r = CacheSizer.size(site("hfile.block.cache.size", "0.4", "hbase.bucketcache.ioengine", "offheap",
        "hbase.bucketcache.size", "1024"), Machine.builder(32 * GIB, 128 * GIB).build());
    assertEquals(1, r.problems().size(), r.problems().toString());
    assertTrue(r.problems().get(0).contains("L2 writer queues 12.0 MiB"), r.problems().get(0));
  }

  @Test
  void stripedFilesAreCheckedAgainstEachDisk() throws Exception {
    // 10240 MB = 10,737,418,240 B → 5,110 buckets = 10,737,377,280 B; engine segments are 7 buckets = 14,708,736 B,
    // so 730 segments, 365 per file: 5,368,688,640 B per file plus its 4 KiB header, just under 5 GiB
    // (5,368,709,120 B).
    String files = "files:" + dir.resolve("a.cache") + "," + dir.resolve("b.cache");
    Path site = site("hfile.block.cache.size", "0.2", "hbase.bucketcache.ioengine", files,
        "hbase.bucketcache.size", "10240");
    SizingReport fits = CacheSizer.size(site, Machine.builder(32 * GIB, 128 * GIB).disks(List.of(5 * GIB)).build());
    L2Fit l2 = fits.l2().orElseThrow();
    assertEquals(5_368_688_640L + CacheFileHeader.LENGTH, l2.fileBytes());
    assertEquals(List.of(dir.resolve("a.cache").toString(), dir.resolve("b.cache").toString()), l2.files());
    assertEquals(List.of(), fits.problems());
    // A file engine takes no RAM: the page cache is 128 − 32 = 96 GiB.
    assertEquals(96 * GIB, fits.pageCacheBytes());

    SizingReport tooSmall = CacheSizer.size(site, Machine.builder(32 * GIB, 128 * GIB)
        .disks(List.of(5 * GIB, 4 * GIB)).build());
    assertEquals(1, tooSmall.problems().size(), tooSmall.problems().toString());
    String problem = tooSmall.problems().get(0);
    assertTrue(problem.contains("a file of 5,368,692,736 bytes (5.00 GiB) at " + dir.resolve("b.cache")), problem);
    assertTrue(problem.contains("--disk=4,294,967,296 bytes (4.00 GiB)"), problem);
    assertTrue(problem.contains("hbase.bucketcache.size=10240 MB"), problem);

    ConfigException wrongCount = assertThrows(ConfigException.class, () -> CacheSizer.size(site,
        Machine.builder(32 * GIB, 128 * GIB).disks(List.of(GIB, GIB, GIB)).build()));
    assertEquals("--disk", wrongCount.key());
  }

  @Test
  void aTinyLfuL1HoldsBlocksUpToItsCapacityAndAHeapL2CountsAgainstTheHeap() throws Exception {
    // TinyLFU evicts above its capacity: 64 MiB = 67,108,864 / 65,752 = 1,020 blocks (65,752 × 1,020 = 67,067,040).
    // A heap L2 of 1024 MB: 1,073,741,824 / 2,101,248 = 511 buckets = 1,073,737,728 B, on the heap with the L1 and
    // the writer queues (12,582,912 B): 67,108,864 + 1,073,737,728 + 12,582,912 + index = 1.15 GB, above the
    // (0.8 − 0.4) × 2 GiB = 858,993,459 B HBase leaves on a 2 GiB heap. Nothing outside the heap: page cache 8 − 2 GiB.
    SizingReport r = CacheSizer.size(site("hfile.block.cache.policy", "TinyLFU", "hfile.block.cache.memory.size",
        "64m", "hbase.bucketcache.ioengine", "heap", "hbase.bucketcache.size", "1024"),
        Machine.builder(2 * GIB, 8 * GIB).build());
    L1Fit l1 = r.l1().orElseThrow();
    assertEquals(L1Policy.TINYLFU, l1.policy());
    assertEquals(67_108_864, l1.evictionStartBytes());
    assertEquals(1_020, l1.blocks());
    L2Fit l2 = r.l2().orElseThrow();
    assertEquals(1_073_737_728L, l2.usableBytes());
    assertEquals(67_108_864L + 1_073_737_728L + 12_582_912L + l2.indexHeapBytes(), r.cacheHeapBytes());
    assertEquals(6 * GIB, r.pageCacheBytes());
    assertEquals(1, r.problems().size(), r.problems().toString());
    assertTrue(r.problems().get(0).contains("hfile.block.cache.memory.size=64m")
        && r.problems().get(0).contains("heap L2 1.00 GiB")
        && r.problems().get(0).contains("lower hfile.block.cache.memory.size or hbase.bucketcache.size"),
        r.problems().get(0));
  }

  @Test
  void anMmapL2IsAFileOnDiskAndTakesItsSizeFromThePageCache() throws Exception {
    // 2048 MB → 1,022 buckets = 2,147,475,456 B, one file of that size plus its header; the page cache
    // holds the slots: 16 − 4 − 2,147,475,456 B.
    Path site = site("hfile.block.cache.size", "0.1", "hbase.bucketcache.ioengine",
        "mmap:" + dir.resolve("l2.mmap"), "hbase.bucketcache.size", "2048");
    SizingReport r = CacheSizer.size(site, Machine.builder(4 * GIB, 16 * GIB).disks(List.of(GIB)).build());
    L2Fit l2 = r.l2().orElseThrow();
    assertEquals(2_147_475_456L + CacheFileHeader.LENGTH, l2.fileBytes());
    assertEquals(12 * GIB - 2_147_475_456L, r.pageCacheBytes());
    assertEquals(1, r.problems().size(), r.problems().toString());
    assertTrue(r.problems().get(0).contains("--disk=1,073,741,824 bytes"), r.problems().get(0));
  }

  @Test
  void aBlockLargerThanEveryBucketSizeIsAProblem() throws Exception {
    // 600 KiB + 56 B of header > 525,312 B, the largest default item.
    SizingReport r = CacheSizer.size(publishedStack(), Machine.builder(32 * GIB, 128 * GIB)
        .blockSize(600 * 1024).build());
    assertEquals(0, r.l2().orElseThrow().blocks());
    assertTrue(r.problems().stream().anyMatch(p -> p.contains("hbase.bucketcache.bucket.sizes")), r.problems()
        .toString());
  }

  @Test
  void badValuesNameTheirKeyOrArgument() throws Exception {
    ConfigException memstore = assertThrows(ConfigException.class, () -> CacheSizer.size(
        site("hbase.regionserver.global.memstore.size", "0.9"), Machine.builder(32 * GIB, 128 * GIB).build()));
    assertEquals("hbase.regionserver.global.memstore.size", memstore.key());
    ConfigException l2Size = assertThrows(ConfigException.class, () -> CacheSizer.size(
        site("hbase.bucketcache.ioengine", "offheap", "hbase.bucketcache.size", "0.5"),
        Machine.builder(32 * GIB, 128 * GIB).build()));
    assertEquals("hbase.bucketcache.size", l2Size.key());
    ConfigException engine = assertThrows(ConfigException.class, () -> CacheSizer.size(
        site("hbase.bucketcache.ioengine", "pmem:/x", "hbase.bucketcache.size", "64"),
        Machine.builder(32 * GIB, 128 * GIB).build()));
    assertEquals("hbase.bucketcache.ioengine", engine.key());
    ConfigException ram = assertThrows(ConfigException.class, () -> Machine.builder(32 * GIB, 16 * GIB).build());
    assertEquals("--ram", ram.key());
    assertEquals("--block-size", assertThrows(ConfigException.class,
        () -> Machine.builder(GIB, GIB).blockSize(0).build()).key());
  }
}
