package dev.blockcache.hbase.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.hbase.BlockCacheRegionServer;
import dev.blockcache.hbase.HBaseL2Cache;
import dev.blockcache.hbase.clients.ycsb.HBaseClientDb;
import dev.blockcache.jmh.experiments.YcsbWorkload;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.Status;

/**
 * The clients' cluster and the YCSB binding, on one mini cluster (two RegionServers, ours placed exclusively, no
 * device delay): every server listens on loopback only and registers as {@code localhost}; a pre-split table's regions
 * sit on both RegionServers; the binding reads back what it wrote through each operation; YCSB's own
 * {@code CoreWorkload} loads and runs over it with every read verified by YCSB.
 *
 * <p>Thread-safety: JUnit runs the tests on one thread, in order; the cluster and YCSB's clients run their own.
 */
@Tag(ClientCluster.LARGE_TESTS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RegionServerClientsTest {
  private static final TableName TABLE = TableName.valueOf(YcsbRun.TABLE);
  private static final int RECORDS = 2_000;

  private static ClientCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = ClientCluster.start(new ClientCluster.Spec(ClientStack.OURS_EXCLUSIVE, 8L << 20, 32, "none", 2, null));
    cluster.createTable(TABLE, YcsbRun.FAMILY, ClientCluster.digitSplits("user", 4));
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void everyServerListensOnLoopbackUnderLocalhost() throws Exception {
    HMaster master = cluster.util().getMiniHBaseCluster().getMaster();
    assertLoopback("master", master.getServerName(), master.getRpcServer().getListenerAddress());
    List<HRegionServer> servers = cluster.regionServers();
    assertEquals(2, servers.size(), "RegionServers");
    for (HRegionServer rs : servers) {
      assertInstanceOf(BlockCacheRegionServer.class, rs, "hbase.regionserver.impl");
      assertInstanceOf(HBaseL2Cache.class, ClientCluster.cacheOf(rs).getSecondLevelCache(), "our L2");
      assertLoopback("RegionServer", rs.getServerName(), rs.getRpcServer().getListenerAddress());
    }
    org.apache.hadoop.hbase.net.Address zk = cluster.util().getZkCluster().getAddress();
    assertTrue(InetAddress.getByName(zk.getHostName()).isLoopbackAddress(), "ZooKeeper at " + zk);
    assertEquals("localhost", cluster.util().getConfiguration().get("hbase.zookeeper.quorum"));
  }

  private static void assertLoopback(String what, ServerName name, InetSocketAddress bound) throws Exception {
    assertEquals("localhost", name.getHostname(), what + " registers as " + name);
    assertTrue(bound.getAddress().isLoopbackAddress(), what + " RPC bound to " + bound);
    assertTrue(InetAddress.getByName(name.getHostname()).isLoopbackAddress(), what + " resolves off loopback");
  }

  @Test
  @Order(2)
  void thePreSplitTableSpansBothRegionServers() throws Exception {
    Set<ServerName> hosting = new HashSet<>();
    try (RegionLocator locator = cluster.connection().getRegionLocator(TABLE)) {
      assertEquals(4, locator.getAllRegionLocations().size(), "regions");
      locator.getAllRegionLocations().forEach(l -> hosting.add(l.getServerName()));
    }
    assertEquals(2, hosting.size(), "RegionServers hosting the table: " + hosting);
    for (HRegionServer rs : cluster.regionServers()) {
      assertEquals(2, rs.getRegions(TABLE).size(), rs.getServerName() + "'s regions");
    }
  }

  @Test
  @Order(3)
  @SuppressWarnings("JdkObsolete") // YCSB's scan result type
  void theBindingReadsBackWhatItWrote() throws Exception {
    HBaseClientDb db = new HBaseClientDb(cluster.connection());
    db.setProperties(YcsbRun.properties(YcsbWorkload.C, 0));
    db.init();
    try {
      String[] keys = {"user1binding", "user5binding", "user8binding"};
      for (String key : keys) {
        assertEquals(Status.OK, db.insert(YcsbRun.TABLE, key, fields(key, "v1")));
      }
      for (String key : keys) {
        Map<String, ByteIterator> read = new HashMap<>();
        assertEquals(Status.OK, db.read(YcsbRun.TABLE, key, null, read));
        assertEquals(strings(fields(key, "v1")), strings(read), key);
      }
      assertEquals(Status.OK, db.update(YcsbRun.TABLE, keys[0], Map.of("field3", bytes("changed"))));
      Map<String, ByteIterator> one = new HashMap<>();
      assertEquals(Status.OK, db.read(YcsbRun.TABLE, keys[0], Set.of("field3", "field4"), one));
      assertEquals(Map.of("field3", "changed", "field4", keys[0] + "/field4/v1"), strings(one));

      Vector<HashMap<String, ByteIterator>> scanned = new Vector<>();
      assertEquals(Status.OK, db.scan(YcsbRun.TABLE, "user5binding", 2, Set.of("field0"), scanned));
      assertEquals(2, scanned.size(), "rows scanned from user5binding");
      assertEquals(keys[1] + "/field0/v1", scanned.get(0).get("field0").toString());
      assertEquals(keys[2] + "/field0/v1", scanned.get(1).get("field0").toString());

      assertEquals(Status.OK, db.delete(YcsbRun.TABLE, keys[2]));
      assertEquals(Status.NOT_FOUND, db.read(YcsbRun.TABLE, keys[2], null, new HashMap<>()));
      for (String key : keys) {
        db.delete(YcsbRun.TABLE, key);
      }
      assertEquals(0, db.errors(), "binding errors");
    } finally {
      db.cleanup();
    }
  }

  @Test
  @Order(4)
  void ycsbCoreWorkloadsRunOverTheBindingWithEveryReadVerified() throws Exception {
    YcsbRun.load(cluster.connection(), RECORDS, 2);
    cluster.util().flush(TABLE);
    for (YcsbWorkload workload : YcsbWorkload.values()) {
      YcsbRun.Result r = YcsbRun.run(cluster.connection(), workload, RECORDS, 2, 1_000, Duration.ofSeconds(30));
      assertEquals(1_000, r.operations(), workload + " operations");
      assertEquals(0, r.wrongReads(), workload + ": reads YCSB found wrong");
      assertEquals(0, r.failedReads(), workload + ": reads YCSB found empty");
      assertEquals(0, r.errors(), workload + ": binding errors");
    }
    long l2Hits = 0;
    for (HRegionServer rs : cluster.regionServers()) {
      l2Hits += ClientCluster.cacheOf(rs).getSecondLevelCache().getStats().getHitCount();
    }
    assertTrue(l2Hits > 0, "no read was served by our L2 after the flush");
    assertFalse(cluster.regionServers().isEmpty());
  }

  @Test
  @Order(5)
  void hbasePerformanceEvaluationRunsItsReadsAgainstTheCluster() throws Exception {
    org.apache.hadoop.conf.Configuration conf = cluster.util().getConfiguration();
    PeRun.load(conf, 2_000, 4);
    cluster.spread(TableName.valueOf(PeRun.TABLE));
    cluster.util().flush(TableName.valueOf(PeRun.TABLE));
    for (List<String> options : List.of(List.<String>of(), List.of("--multiGet=10"))) {
      PeRun.Result r = PeRun.run(conf, options, "randomRead", 2, 200, 2_000);
      assertEquals(400, r.rows(), r.command() + " rows");
      assertTrue(r.rowsPerSecond() > 0 && r.p99Micros() >= r.p50Micros(), r.toString());
    }
    PeRun.Result scan = PeRun.run(conf, List.of(), "scanRange100", 1, 20, 2_000);
    assertEquals(20, scan.rows(), scan.toString());
  }

  private static Map<String, ByteIterator> fields(String key, String version) {
    Map<String, ByteIterator> values = new HashMap<>();
    for (int f = 0; f < YcsbRun.FIELDS; f++) {
      values.put("field" + f, bytes(key + "/field" + f + "/" + version));
    }
    return values;
  }

  private static ByteIterator bytes(String s) {
    return new ByteArrayByteIterator(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private static Map<String, String> strings(Map<String, ByteIterator> values) {
    Map<String, String> out = new HashMap<>();
    values.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }
}
