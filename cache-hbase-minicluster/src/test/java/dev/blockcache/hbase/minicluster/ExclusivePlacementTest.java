package dev.blockcache.hbase.minicluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.hbase.BlockCacheRegionServer;
import dev.blockcache.hbase.HBaseL2Cache;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.Waiter;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.InclusiveCombinedBlockCache;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;
import org.apache.hadoop.hbase.io.hfile.PrefetchExecutor;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.MetricsRegionServerWrapper;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 39's exclusive placement: HBase's mini cluster (ZooKeeper, one master, one RegionServer, local filesystem,
 * loopback) whose RegionServer is {@link BlockCacheRegionServer}, named by {@code hbase.regionserver.impl} next to
 * the {@code hbase.bucketcache.*} keys, as an operator's hbase-site.xml would. Shows: HBase's non-inclusive combined
 * cache over HBase's L1 and our L2; gets over RPC served by L2 hits, handed out as shared (off-heap) blocks, with no
 * data block in HBase's L1; our per-region bytes equal to what the L2 holds, and the RegionServer's load report
 * (what the cache-aware balancer reads) carrying them; prefetch skipping blocks already cached and files fully
 * cached; on a persistent {@code file:} L2, our L2 closed when the server stops and, on the restarted server, the
 * restored bytes per region in the load report and serving gets. (A departed region's blocks: {@code DepartedRegionsTest} and
 * {@code CacheBookkeepingTest}, without a cluster.)
 *
 * <p>Thread-safety: JUnit runs the tests on one thread, in order; the cluster runs its own.
 */
@Tag(RegionServerLevelTest.LARGE_TESTS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExclusivePlacementTest {
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");
  private static final int VALUE_BYTES = 1_000;
  private static final long MB = 1024 * 1024;
  /** Every wait on the cluster is bounded by this. */
  private static final Duration WAIT = Duration.ofSeconds(60);

  private static HBaseTestingUtility util;
  private static HBaseL2Cache ours;

  @BeforeAll
  static void startCluster() throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.regionserver.impl", BlockCacheRegionServer.class.getName());
    // A persistent file: L2, so that a restarted RegionServer restores it.
    java.nio.file.Path l2 = Files.createDirectories(java.nio.file.Path.of("target", "placement-l2").toAbsolutePath());
    Files.deleteIfExists(l2.resolve("index"));
    conf.set("hbase.bucketcache.ioengine", "file:" + l2.resolve("cache"));
    conf.set("hbase.bucketcache.persistent.path", l2.resolve("index").toString());
    conf.set("hbase.bucketcache.size", "64");
    conf.setInt("hbase.regionserver.msginterval", 500);
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    util = new HBaseTestingUtility(conf);
    util.startMiniZKCluster();
    util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1).numRegionServers(1).build());
    ours = ((BlockCacheRegionServer) regionServer()).l2().orElseThrow();
  }

  @AfterAll
  static void stopClusterAndSeeOurL2Closed() throws IOException {
    if (util != null) {
      util.shutdownMiniHBaseCluster();
      util.shutdownMiniZKCluster();
    }
    if (ours != null) {
      assertFalse(ours.isCacheEnabled(), "our L2 still open after the RegionServer stopped");
    }
  }

  @Test
  @Order(1)
  void getsAreL2HitsOfSharedBlocksWithNoDataBlockInHBasesL1() throws Exception {
    HRegionServer rs = regionServer();
    assertInstanceOf(BlockCacheRegionServer.class, rs, "hbase.regionserver.impl");
    BlockCache cache = rs.getBlockCache().orElseThrow();
    assertInstanceOf(CombinedBlockCache.class, cache);
    assertFalse(cache instanceof InclusiveCombinedBlockCache, "HBase's inclusive wrapping");
    CombinedBlockCache combined = (CombinedBlockCache) cache;
    assertInstanceOf(LruBlockCache.class, combined.getFirstLevelCache(), "HBase's own L1");
    assertSame(ours, combined.getSecondLevelCache());

    TableName table = TableName.valueOf("placement_gets");
    int rows = 2_000;
    try (Table t = createTable(table, rows, 4, false)) {
      readAll(t, rows);
      drain();
      MetricsRegionServerWrapper metrics = rs.getMetrics().getRegionServerWrapper();
      long l2HitsBefore = ours.getStats().getHitCount();
      long l1HitsBefore = combined.getFirstLevelCache().getStats().getHitCount();
      readAll(t, rows);
      long l2Hits = ours.getStats().getHitCount() - l2HitsBefore;
      assertTrue(l2Hits >= rows, "L2 hits " + l2Hits + " for " + rows + " gets");
      assertTrue(combined.getFirstLevelCache().getStats().getHitCount() > l1HitsBefore, "index blocks hit the L1");
      assertEquals(ours.getStats().getHitCount(), metrics.getL2CacheHitCount(), "the RegionServer's l2CacheHitCount");

      LruBlockCache l1 = (LruBlockCache) combined.getFirstLevelCache();
      assertEquals(0, l1.getDataBlockCount(), "data blocks in HBase's L1");
      Map<BlockType.BlockCategory, Integer> l1Categories = new HashMap<>();
      for (Iterator<CachedBlock> it = l1.iterator(); it.hasNext(); ) {
        l1Categories.merge(it.next().getBlockType().getCategory(), 1, Integer::sum);
      }
      assertFalse(l1Categories.containsKey(BlockType.BlockCategory.DATA), "L1 blocks by category: " + l1Categories);
      assertFalse(l1Categories.isEmpty(), "no index or bloom block in HBase's L1");

      CachedBlock any = ours.iterator().next();
      Cacheable block = combined.getBlock(new BlockCacheKey(any.getFilename(), any.getOffset(), true, BlockType.DATA),
          true, false, false);
      assertNotNull(block);
      try {
        assertTrue(((HFileBlock) block).isSharedMem(), "an L2 hit is handed out as it is, not copied to the heap");
      } finally {
        block.release();
      }
      assertEquals(0, ours.l2().metrics().pinnedSlots(), "a released block unpins its slot");
    }
  }

  @Test
  @Order(2)
  void regionCachedInfoIsWhatOurL2HoldsAndTheLoadReportCarriesIt() throws Exception {
    HRegionServer rs = regionServer();
    TableName table = TableName.valueOf("placement_gets");
    Map<String, String> regionOfFile = new HashMap<>();
    for (HRegion region : rs.getRegions(table)) {
      for (HStore store : region.getStores()) {
        for (HStoreFile file : store.getStorefiles()) {
          regionOfFile.put(file.getPath().getName(), region.getRegionInfo().getEncodedName());
        }
      }
    }
    Map<String, Long> held = new HashMap<>();
    for (Iterator<CachedBlock> it = ours.iterator(); it.hasNext(); ) {
      CachedBlock block = it.next();
      String region = regionOfFile.get(block.getFilename());
      if (region != null) {
        held.merge(region, block.getSize(), Long::sum);
      }
    }
    assertEquals(4, held.size(), "regions with blocks in our L2: " + held);
    Map<String, Long> reported = ours.getRegionCachedInfo().orElseThrow();
    for (Map.Entry<String, Long> region : held.entrySet()) {
      assertEquals(region.getValue(), reported.get(region.getKey()), "region " + region.getKey());
    }

    // The RegionServer's report to the master: region cached info in MB, and each region's cached ratio, which the
    // cache-aware balancer reads.
    waitFor("the load report to carry our cached bytes", () -> {
      ServerMetrics server = serverMetrics(rs);
      for (Map.Entry<String, Long> region : held.entrySet()) {
        Integer mb = server.getRegionCachedInfo().get(region.getKey());
        if (mb == null || mb != Math.max(1, region.getValue() / MB)) {
          return false;
        }
      }
      return true;
    });
    ServerMetrics server = serverMetrics(rs);
    for (RegionMetrics region : server.getRegionMetrics().values()) {
      if (held.containsKey(RegionInfo.encodeRegionName(region.getRegionName()))) {
        assertTrue(region.getCurrentRegionCachedRatio() > 0, region.getNameAsString());
      }
    }
  }

  @Test
  @Order(3)
  void prefetchSkipsBlocksAlreadyCachedAndFilesFullyCached() throws Exception {
    HRegionServer rs = regionServer();
    TableName table = TableName.valueOf("placement_prefetch");
    try (Table t = createTable(table, 2_000, 1, true)) {
      HRegion region = rs.getRegions(table).get(0);
      org.apache.hadoop.fs.Path filePath = region.getStores().get(0).getStorefiles().iterator().next().getPath();
      String file = filePath.getName();
      waitFor("prefetch to cache " + file + " fully", () -> fullyCached(file));
      long dataBlocks = blocksOf(file);
      assertTrue(dataBlocks > 10, "data blocks of " + file + ": " + dataBlocks);

      // The last data block: HBase 2.6.4's prefetch reads the first block it finds missing after skipping cached
      // ones with the next-block size of the last block it read, which only the block right after that one has.
      CachedBlock one = lastBlockOf(file);
      assertTrue(ours.evictBlock(new BlockCacheKey(one.getFilename(), one.getOffset(), true, BlockType.DATA)));
      assertFalse(fullyCached(file), "still fully cached after losing a block");
      long writes = slotWrites();
      reopen(region);
      waitFor("prefetch to cache " + file + " fully again", () -> fullyCached(file));
      drain();
      assertEquals(1, slotWrites() - writes, "prefetch wrote the one missing block only");

      writes = slotWrites();
      reopen(rs.getRegions(table).get(0));
      // The reopen requested any prefetch before it returned; none may be left running before the count is read.
      waitFor("no prefetch of " + file + " running", () -> PrefetchExecutor.isCompleted(filePath));
      drain();
      assertEquals(0, slotWrites() - writes, "a fully cached file is not prefetched again");
      readAll(t, 2_000);
    }
  }

  @Test
  @Order(4)
  void afterARestartTheLoadReportCarriesTheBytesOurL2Restored() throws Exception {
    TableName table = TableName.valueOf("placement_gets");
    HRegionServer stopped = regionServer();
    Map<String, Long> before = new HashMap<>();
    for (HRegion region : stopped.getRegions(table)) {
      String name = region.getRegionInfo().getEncodedName();
      before.put(name, ours.getRegionCachedInfo().orElseThrow().get(name));
    }
    assertEquals(4, before.size());
    HBaseL2Cache first = ours;
    util.getMiniHBaseCluster().stopRegionServer(0);
    util.getMiniHBaseCluster().waitForRegionServerToStop(stopped.getServerName(), WAIT.toMillis());
    assertFalse(first.isCacheEnabled(), "our L2 still open after its RegionServer stopped");

    HRegionServer restarted = util.getMiniHBaseCluster().startRegionServer().getRegionServer();
    ours = ((BlockCacheRegionServer) restarted).l2().orElseThrow();
    util.waitTableAvailable(table);
    waitFor("the regions to reopen on the restarted server", () -> restarted.getRegions(table).size() == 4);
    waitFor("the restored bytes per region", () -> before.equals(cachedOf(before)));
    waitFor("the load report to carry the restored bytes", () -> {
      ServerMetrics server = serverMetrics(restarted);
      if (server == null) {
        return false;
      }
      for (Map.Entry<String, Long> region : before.entrySet()) {
        Integer mb = server.getRegionCachedInfo().get(region.getKey());
        if (mb == null || mb != Math.max(1, region.getValue() / MB)) {
          return false;
        }
      }
      return true;
    });
    try (Table t = util.getConnection().getTable(table)) {
      long hits = ours.getStats().getHitCount();
      readAll(t, 2_000);
      assertTrue(ours.getStats().getHitCount() - hits >= 2_000, "restored blocks serve the gets");
    }
  }

  private static Map<String, Long> cachedOf(Map<String, Long> regions) {
    Map<String, Long> cached = new HashMap<>();
    for (String region : regions.keySet()) {
      cached.put(region, ours.getRegionCachedInfo().orElseThrow().get(region));
    }
    return cached;
  }

  private static Table createTable(TableName name, int rows, int regions, boolean prefetch)
      throws IOException, InterruptedException {
    TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setPrefetchBlocksOnOpen(prefetch).build());
    byte[][] splits = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      splits[i - 1] = row(i * rows / regions);
    }
    util.getAdmin().createTable(table.build(), splits);
    util.waitTableAvailable(name);
    Table t = util.getConnection().getTable(name);
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      puts.add(new Put(row(i)).addColumn(FAMILY, QUALIFIER, value(i)));
    }
    t.put(puts);
    util.flush(name);
    return t;
  }

  private static void reopen(HRegion region) throws Exception {
    byte[] name = region.getRegionInfo().getRegionName();
    TableName table = region.getRegionInfo().getTable();
    util.getAdmin().unassign(name);
    util.getAdmin().assign(name);
    util.waitTableAvailable(table);
    waitFor("the region to reopen", () -> regionServer().getRegions(table).size() == 1);
  }

  private static void readAll(Table table, int rows) throws IOException {
    for (int i = 0; i < rows; i++) {
      Result r = table.get(new Get(row(i)));
      assertArrayEquals(value(i), r.getValue(FAMILY, QUALIFIER), "row " + i);
    }
  }

  private static boolean fullyCached(String file) {
    return ours.getFullyCachedFiles().orElseThrow().containsKey(file);
  }

  private static long blocksOf(String file) {
    long n = 0;
    for (Iterator<CachedBlock> it = ours.iterator(); it.hasNext(); ) {
      n += it.next().getFilename().equals(file) ? 1 : 0;
    }
    return n;
  }

  private static CachedBlock lastBlockOf(String file) {
    CachedBlock last = null;
    for (Iterator<CachedBlock> it = ours.iterator(); it.hasNext(); ) {
      CachedBlock block = it.next();
      if (block.getFilename().equals(file) && (last == null || block.getOffset() > last.getOffset())) {
        last = block;
      }
    }
    assertNotNull(last, "no block of " + file);
    return last;
  }

  private static long slotWrites() {
    return ours.l2().metrics().engine().writes();
  }

  private static void drain() throws InterruptedException {
    assertTrue(ours.l2().awaitWritten(WAIT), "L2 writers still busy");
  }

  private static ServerMetrics serverMetrics(HRegionServer rs) {
    try {
      return util.getAdmin().getClusterMetrics().getLiveServerMetrics().get(rs.getServerName());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static HRegionServer regionServer() {
    return util.getMiniHBaseCluster().getLiveRegionServerThreads().get(0).getRegionServer();
  }

  /** Polls {@code condition} through HBase's bounded {@link Waiter}, failing with {@code what} on timeout. */
  private static void waitFor(String what, BooleanSupplier condition) {
    Waiter.waitFor(util.getConfiguration(), WAIT.toMillis(), 100, new Waiter.ExplainingPredicate<RuntimeException>() {
      @Override
      public boolean evaluate() {
        return condition.getAsBoolean();
      }

      @Override
      public String explainFailure() {
        return "timed out waiting for " + what;
      }
    });
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%06d", i));
  }

  private static byte[] value(int i) {
    byte[] v = new byte[VALUE_BYTES];
    for (int j = 0; j < v.length; j++) {
      v[j] = (byte) (i * 31 + j);
    }
    return v;
  }
}
