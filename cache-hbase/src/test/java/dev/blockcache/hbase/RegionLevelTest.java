package dev.blockcache.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.hbase.testing.RegionHarness;
import dev.blockcache.hbase.testing.TestCaches;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An HBase region on the local filesystem with a WAL, reading through HBase's {@link CombinedBlockCache} (its own
 * LRU L1 for index and bloom blocks) with our L2 for data blocks, against the same sequence over HBase's own
 * {@link BucketCache} (offheap) as the L2: puts in three flushed batches, gets and scans, overwrites and deletes,
 * a major compaction, close and reopen. Proves the results are identical over both caches at every step, that our
 * L2 served data blocks (hits counted), and that the blocks of the compacted-away HFiles are gone from our L2 after
 * HBase archives them (listed through its iterator). Leak checks of both netty copies run after the test.
 */
class RegionLevelTest {
  private static final int ROWS = 3_000;
  private static final byte[] Q = Bytes.toBytes("q");
  private static final byte[] Q2 = Bytes.toBytes("r");

  @TempDir
  java.nio.file.Path dir;

  @Test
  void resultsMatchHBaseBucketCacheAndCompactedFilesAreEvicted() throws IOException {
    Configuration conf = TestCaches.conf("offheap", 32);
    HBaseL2Cache ours = TestCaches.ours(conf);
    BucketCache theirs = new BucketCache("offheap", 32L << 20, 8 * 1024, null, 1, 64, null);
    List<String> withOurs;
    List<String> withTheirs;
    try {
      withOurs = run(conf, "ours", new CombinedBlockCache(l1(), ours), ours);
      withTheirs = run(conf, "theirs", new CombinedBlockCache(l1(), theirs), null);
    } finally {
      ours.shutdown();
      evictAll(theirs);
      theirs.shutdown();
    }
    assertEquals(withTheirs.size(), withOurs.size());
    for (int i = 0; i < withOurs.size(); i++) {
      assertEquals(withTheirs.get(i), withOurs.get(i), "step " + i);
    }
  }

  /**
   * HBase's BucketCache drops its entries at shutdown without releasing their reference counts, which HBase's leak
   * detector at PARANOID then reports; evicting them first releases each one.
   */
  static void evictAll(BlockCache cache) {
    Set<String> files = new HashSet<>();
    cache.iterator().forEachRemaining(b -> files.add(b.getFilename()));
    files.forEach(cache::evictBlocksByHfileName);
  }

  private static LruBlockCache l1() {
    return new LruBlockCache(8L << 20, 8 * 1024);
  }

  /**
   * The sequence; returns what each read step saw. With {@code ours} set, also checks our L2's hits and its
   * eviction of compacted files.
   */
  private List<String> run(Configuration conf, String name, BlockCache cache, HBaseL2Cache ours) throws IOException {
    List<String> seen = new ArrayList<>();
    try (RegionHarness h = new RegionHarness(conf, dir.resolve(name), cache)) {
      for (int batch = 0; batch < 3; batch++) {
        for (int i = batch; i < ROWS; i += 3) {
          Put put = new Put(row(i));
          put.addColumn(RegionHarness.FAMILY, Q, 100L, HFileLevelTest.value(i));
          put.addColumn(RegionHarness.FAMILY, Q2, 100L, Bytes.toBytes("v" + i));
          h.region().put(put);
        }
        h.region().flush(true);
      }
      assertEquals(3, h.storeFileNames().size());
      reads(h, seen);
      drain(ours);
      reads(h, seen); // the second time through, data blocks come from the L2
      if (ours != null) {
        assertTrue(ours.getStats().getHitCount() > 0, "no read was served by our L2");
      }

      for (int i = 0; i < ROWS; i += 5) {
        Put put = new Put(row(i));
        put.addColumn(RegionHarness.FAMILY, Q, 200L, Bytes.toBytes("new" + i));
        h.region().put(put);
      }
      for (int i = 1; i < ROWS; i += 11) {
        h.region().delete(new Delete(row(i)));
      }
      h.region().flush(true);
      reads(h, seen);

      Set<String> before = h.storeFileNames();
      drain(ours);
      if (ours != null) {
        assertTrue(blocksOf(ours, before) > 0, "the files to compact have no block in the L2");
      }
      h.majorCompact();
      Set<String> after = h.storeFileNames();
      assertEquals(1, after.size());
      assertFalse(before.containsAll(after));
      if (ours != null) {
        assertEquals(0, blocksOf(ours, before), "blocks of compacted-away files are still cached");
      }
      reads(h, seen);

      h.reopen();
      reads(h, seen);
      drain(ours);
      reads(h, seen);
    }
    return seen;
  }

  private static void reads(RegionHarness h, List<String> seen) throws IOException {
    StringBuilder gets = new StringBuilder();
    for (int i = 0; i < ROWS; i += 7) {
      gets.append(h.get(row(i)));
    }
    gets.append(h.get(Bytes.toBytes("absent")));
    seen.add(gets.toString());
    seen.add(h.scan());
    seen.add(h.scan(new Scan().withStartRow(row(1000)).withStopRow(row(1100)).addColumn(RegionHarness.FAMILY, Q)));
  }

  private static void drain(HBaseL2Cache ours) {
    if (ours != null) {
      TestCaches.drain(ours);
    }
  }

  private static long blocksOf(HBaseL2Cache cache, Set<String> files) {
    Set<String> names = new HashSet<>(files);
    long n = 0;
    for (Iterator<CachedBlock> it = cache.iterator(); it.hasNext();) {
      if (names.contains(it.next().getFilename())) {
        n++;
      }
    }
    return n;
  }

  static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%06d", i));
  }
}
