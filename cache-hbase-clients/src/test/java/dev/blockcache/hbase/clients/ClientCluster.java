package dev.blockcache.hbase.clients;

import dev.blockcache.hbase.clients.fs.DelayedLocalFileSystem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * HBase's mini cluster as the client benchmarks and tests run it: ZooKeeper, one master and {@link Spec#regionServers}
 * RegionServers in this JVM over the local filesystem, every listener on the loopback address (hostnames
 * {@code localhost}, RPC bound to {@code 127.0.0.1}, web UIs off), each RegionServer with the same L1 size and an
 * {@code offheap} L2 of the same size placed by the spec's {@link ClientStack}, and HFile reads through the spec's
 * modelled device ({@link DelayedLocalFileSystem}). Tables are pre-split and their regions spread round-robin over the
 * RegionServers.
 *
 * <p>The RegionServers share the JVM's heap and direct memory: {@code -Xmx} and {@code -XX:MaxDirectMemorySize} must
 * hold every RegionServer's L1 and L2.
 *
 * <p>Thread-safety: start, table creation and close from one thread; the cluster runs its own threads, and
 * {@link #connection()} is HBase's thread-safe shared connection.
 */
final class ClientCluster implements AutoCloseable {
  /**
   * HBase's scale tag for tests that start a cluster: HBase's test jars bring a JUnit extension that refuses a test
   * class without one, and bounds its run time by it.
   */
  static final String LARGE_TESTS = "org.apache.hadoop.hbase.testclassification.LargeTests";
  /** Bound on every wait for regions to settle, in milliseconds. */
  private static final long SETTLE_MILLIS = 120_000;

  private final HBaseTestingUtility util;

  /**
   * What a cluster runs.
   *
   * @param stack where the L2 sits and whose it is
   * @param l1Bytes each RegionServer's L1 (HBase's LruBlockCache), bytes
   * @param l2Mb each RegionServer's L2, MB ({@code hbase.bucketcache.size})
   * @param device the modelled device HFile reads go through ({@link DelayedLocalFileSystem#DEVICES})
   * @param regionServers RegionServers to start, at least 1
   * @param bucketSizes {@code hbase.bucketcache.bucket.sizes} for every L2, or null for the default classes
   */
  record Spec(ClientStack stack, long l1Bytes, int l2Mb, String device, int regionServers, String bucketSizes) {}

  private ClientCluster(HBaseTestingUtility util) {
    this.util = util;
  }

  /** Starts ZooKeeper, the master and the RegionServers; the caller closes the cluster. */
  static ClientCluster start(Spec spec) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    loopbackOnly(conf);
    conf.set("hbase.bucketcache.ioengine", "offheap");
    conf.set("hbase.bucketcache.size", Integer.toString(spec.l2Mb()));
    if (spec.bucketSizes() != null) {
      conf.set("hbase.bucketcache.bucket.sizes", spec.bucketSizes());
    }
    conf.setFloat("hfile.block.cache.size", (float) spec.l1Bytes() / Runtime.getRuntime().maxMemory());
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    // Regions stay where the test or benchmark puts them: no balancer run mid-measurement (the tables stay far below
    // the size at which HBase's default policy splits a region).
    conf.setBoolean("hbase.balancer.tablesOnMaster", false);
    conf.setInt("hbase.balancer.period", Integer.MAX_VALUE);
    spec.stack().configure(conf);
    DelayedLocalFileSystem.install(conf, spec.device());
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    util.startMiniZKCluster();
    util.startMiniHBaseCluster(
        StartMiniClusterOption.builder().numMasters(1).numRegionServers(spec.regionServers()).build());
    return new ClientCluster(util);
  }

  /**
   * Hostnames and bind addresses of every server on loopback: ZooKeeper's quorum, the master's and RegionServers'
   * hostnames (which they register under and clients dial) and their RPC bind addresses; web UIs off.
   */
  static void loopbackOnly(Configuration conf) {
    conf.set("hbase.zookeeper.quorum", "localhost");
    conf.set("hbase.master.hostname", "localhost");
    conf.set("hbase.unsafe.regionserver.hostname", "localhost");
    conf.set("hbase.master.ipc.address", "127.0.0.1");
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
  }

  HBaseTestingUtility util() {
    return util;
  }

  /** The cluster's shared client connection (HBase's; not closed by the caller). */
  Connection connection() throws IOException {
    return util.getConnection();
  }

  /** The live RegionServers. */
  List<HRegionServer> regionServers() {
    List<HRegionServer> servers = new ArrayList<>();
    util.getMiniHBaseCluster().getLiveRegionServerThreads().forEach(t -> servers.add(t.getRegionServer()));
    return servers;
  }

  /** {@code rs}'s combined cache (every stack here runs an L1 and an L2). */
  static CombinedBlockCache cacheOf(HRegionServer rs) {
    BlockCache cache = rs.getBlockCache().orElseThrow();
    if (!(cache instanceof CombinedBlockCache combined)) {
      throw new IllegalStateException("RegionServer " + rs.getServerName() + " runs " + cache + ", no L2");
    }
    return combined;
  }

  /**
   * Creates {@code table} with one family (64 KiB blocks, a row bloom), split at {@code splits}, and spreads its
   * regions round-robin over the live RegionServers; returns once every region is open where it was sent.
   */
  void createTable(TableName table, byte[] family, byte[][] splits) throws Exception {
    util.createTable(TableDescriptorBuilder.newBuilder(table)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(family).setBlocksize(64 * 1024).build())
        .build(), splits);
    util.waitTableAvailable(table, SETTLE_MILLIS);
    spread(table);
  }

  /** Moves {@code table}'s regions so that region i sits on RegionServer i mod n; waits for the moves. */
  void spread(TableName table) throws Exception {
    List<ServerName> servers = new ArrayList<>();
    regionServers().forEach(rs -> servers.add(rs.getServerName()));
    try (Admin admin = connection().getAdmin(); RegionLocator locator = connection().getRegionLocator(table)) {
      List<HRegionLocation> regions = locator.getAllRegionLocations();
      for (int i = 0; i < regions.size(); i++) {
        ServerName target = servers.get(i % servers.size());
        if (!target.equals(regions.get(i).getServerName())) {
          admin.move(regions.get(i).getRegion().getEncodedNameAsBytes(), target);
        }
      }
    }
    util.waitUntilNoRegionsInTransition(SETTLE_MILLIS);
  }

  /** The split points {@code prefix + "1"} ... {@code prefix + (n - 1)}: n regions for keys of one prefix. */
  static byte[][] digitSplits(String prefix, int n) {
    byte[][] splits = new byte[n - 1][];
    for (int i = 1; i < n; i++) {
      splits[i - 1] = Bytes.toBytes(prefix + (i * 10 / n));
    }
    return splits;
  }

  @Override
  public void close() throws IOException {
    try {
      util.shutdownMiniHBaseCluster();
    } finally {
      try {
        // ZooKeeper stops even when HBase's shutdown failed (a killed RegionServer that never came back, say).
        util.shutdownMiniZKCluster();
      } finally {
        // A cached file: filesystem keeps its device: the next cluster may model another.
        FileSystem.closeAll();
      }
    }
  }
}
