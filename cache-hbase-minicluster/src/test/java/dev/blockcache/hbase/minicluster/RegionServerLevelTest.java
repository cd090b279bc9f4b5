package dev.blockcache.hbase.minicluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.hbase.HBaseL2Cache;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.io.hfile.InclusiveCombinedBlockCache;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.MetricsRegionServerWrapper;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 17's RegionServer level: HBase's mini cluster (ZooKeeper, one master, one RegionServer, on the local
 * filesystem) started from a configuration carrying {@code hbase.blockcache.use.external=true} and our class, as an
 * operator's hbase-site.xml would. A client creates a table, writes, flushes and reads it back twice; the L1 is
 * cleared between the two reads, so the second is served by the L2, and the RegionServer's own metrics wrapper (what
 * its JMX bean and web UI publish as {@code l2CacheHitCount} and friends) must show those hits.
 *
 * <p>HBase's test jars register HBase's JUnit 5 extension, which refuses a test class without one of HBase's scale
 * tags and bounds its run time by it: this is a large test (HBase's longest bound).
 *
 * <p>Thread-safety: JUnit runs the test on one thread; the cluster runs its own.
 */
@Tag(RegionServerLevelTest.LARGE_TESTS)
class RegionServerLevelTest {
  /** HBase's scale tag for tests that start a cluster (its {@code LargeTests} category). */
  static final String LARGE_TESTS = "org.apache.hadoop.hbase.testclassification.LargeTests";
  private static final TableName TABLE = TableName.valueOf("blockcache_rs");
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");
  private static final int ROWS = 2_000;

  private static HBaseTestingUtility util;

  @BeforeAll
  static void startCluster() throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.setBoolean("hbase.blockcache.use.external", true);
    conf.set("hbase.blockcache.external.class", HBaseL2Cache.class.getName());
    conf.set("hbase.bucketcache.ioengine", "offheap");
    conf.set("hbase.bucketcache.size", "64");
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    util = new HBaseTestingUtility(conf);
    util.startMiniZKCluster();
    util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1).numRegionServers(1).build());
  }

  @AfterAll
  static void stopCluster() throws IOException {
    if (util != null) {
      util.shutdownMiniHBaseCluster();
      util.shutdownMiniZKCluster();
    }
  }

  @Test
  void readsAfterAFlushAreServedByOurL2AndTheRegionServerMetricsSaySo() throws Exception {
    HRegionServer rs = util.getMiniHBaseCluster().getRegionServer(0);
    BlockCache cache = rs.getBlockCache().orElseThrow();
    assertInstanceOf(InclusiveCombinedBlockCache.class, cache, "HBase's external-cache hook");
    CombinedBlockCache combined = (CombinedBlockCache) cache;
    assertInstanceOf(HBaseL2Cache.class, combined.getSecondLevelCache(), "the L2 HBase built");
    HBaseL2Cache ours = (HBaseL2Cache) combined.getSecondLevelCache();

    try (Table table = util.createTable(TABLE, "f")) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        puts.add(new Put(row(i)).addColumn(FAMILY, QUALIFIER, value(i)));
      }
      table.put(puts);
      util.flush(TABLE);

      readAll(table);
      assertTrue(ours.l2().awaitWritten(Duration.ofSeconds(60)), "L2 writers still busy after 60 s");
      assertTrue(ours.getBlockCount() > 0, "the first read cached no block in our L2");
      // The inclusive combined cache keeps the blocks in HBase's L1 too: clear it, so the next read goes to the L2.
      ((LruBlockCache) combined.getFirstLevelCache()).clearCache();

      MetricsRegionServerWrapper metrics = rs.getMetrics().getRegionServerWrapper();
      long hitsBefore = metrics.getL2CacheHitCount();
      readAll(table);
      long l2Hits = metrics.getL2CacheHitCount() - hitsBefore;
      assertTrue(l2Hits > 0, "the RegionServer counted no L2 hit");
      assertEquals(ours.getStats().getHitCount(), metrics.getL2CacheHitCount(),
          "the RegionServer's l2CacheHitCount is our L2's count");
      assertEquals(ours.getBlockCount(), metrics.getL2CacheCount(), "l2CacheCount");
      assertTrue(metrics.getL2CacheHitRatio() > 0, "l2CacheHitRatio");
    }
  }

  private static void readAll(Table table) throws IOException {
    for (int i = 0; i < ROWS; i++) {
      Result r = table.get(new Get(row(i)));
      assertArrayEquals(value(i), r.getValue(FAMILY, QUALIFIER), "row " + i);
    }
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%06d", i));
  }

  private static byte[] value(int i) {
    byte[] v = new byte[200];
    for (int j = 0; j < v.length; j++) {
      v[j] = (byte) (i * 31 + j);
    }
    return v;
  }
}
