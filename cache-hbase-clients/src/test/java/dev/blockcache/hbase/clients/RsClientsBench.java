package dev.blockcache.hbase.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.blockcache.hbase.minicluster.RegionServerProbes;
import dev.blockcache.jmh.experiments.YcsbWorkload;
import io.netty.util.ResourceLeakDetector;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 40's benchmark: two RegionServers in HBase's mini cluster (loopback, local filesystem, HFile reads through a
 * modelled device) read over RPC by YCSB's {@code CoreWorkload} (A, C, F, update-only; Zipfian; 10 fields of 100 B)
 * through our binding and by HBase's PerformanceEvaluation ({@code randomRead}, multi-get of 100, {@code scanRange100},
 * {@code scanRange1000}, at several client thread counts), for each {@link ClientStack} with the same L1 and L2 sizes,
 * on a dataset that fits the L2s and one four times their size. Every round runs every dataset and stack on a fresh
 * cluster, stacks alternating (reversed on odd rounds), and the report divides by HBase's BucketCache in the same
 * round.
 *
 * <p>Each cluster: load with YCSB (client-buffered inserts), flush and major-compact, read the whole table once so
 * every block that fits is cached, let the L2 writers drain, a C warm-up; then the measured windows, each bounded by
 * {@link BenchConfig#seconds()} and {@link BenchConfig#maxOperations()}: C, A, F, update-only, then (fits dataset only)
 * PE's commands on its own table. Per window: client throughput and latency percentiles; from the RegionServers, L1
 * and L2 hit ratios, bytes allocated per operation by their RPC handlers and by the JVM, GC count and time; per
 * cluster, dataset size, L1 bytes and heap in use after a full GC.
 *
 * <p>Not in the default test run: {@code ./mvnw -B -Prs-clients verify -pl cache-hbase-clients -am -DskipTests} (this
 * module's profile), sized by {@link BenchConfig}'s keys; it writes {@code report-rs-clients.md} into
 * {@code blockcache.rsclients.results} (the profile: {@code docs/results/}), a smoke run into {@code target/}.
 *
 * <p>Thread-safety: JUnit's thread drives; client threads are YCSB's and PE's.
 */
@Tag(RsClientsBench.INTEGRATION_TESTS)
@EnabledIfSystemProperty(named = "blockcache.rsclients", matches = "true")
class RsClientsBench {
  /**
   * HBase's scale tag without a time limit: a full run outlasts the large tests' 13 minutes; its own bounds are
   * {@link BenchConfig}'s windows and counts.
   */
  static final String INTEGRATION_TESTS = "org.apache.hadoop.hbase.testclassification.IntegrationTests";
  /** Each RegionServer's L1: HBase's LruBlockCache, index and bloom blocks (and data blocks behind the hook). */
  static final long L1_BYTES = 16L << 20;
  /** Each RegionServer's L2, MB: two RegionServers hold 32 MB of data blocks. */
  static final int L2_MB = 16;
  /** Size classes of both L2s: 64 KiB blocks and their headers, without classes no block of this table uses. */
  static final String BUCKET_SIZES = "66560,99328,132096";
  /** YCSB records of the dataset that fits the L2s (about half of them; two thirds with PE's table). */
  static final int FITS_RECORDS = 10_000;
  /** YCSB records of the dataset over four times the L2s (the report gives the measured ratio). */
  static final int LARGE_RECORDS = 96_000;
  /** PE rows (1 KB values), fits dataset only. */
  static final int PE_ROWS = 5_000;
  static final int REGIONS = 4;
  /** Bound on one PE command's run, whatever its operation count. */
  private static final Duration PE_TIMEOUT = Duration.ofMinutes(3);

  /**
   * Benchmarks run without the PARANOID leak detectors, ours and HBase's relocated one, which record every buffer
   * access (as the placement bench); the test session's listener set both to PARANOID.
   */
  @BeforeAll
  static void withoutLeakDetectors() {
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    org.apache.hbase.thirdparty.io.netty.util.ResourceLeakDetector.setLevel(
        org.apache.hbase.thirdparty.io.netty.util.ResourceLeakDetector.Level.DISABLED);
  }

  @AfterAll
  static void leakDetectorsBack() {
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    org.apache.hbase.thirdparty.io.netty.util.ResourceLeakDetector.setLevel(
        org.apache.hbase.thirdparty.io.netty.util.ResourceLeakDetector.Level.PARANOID);
  }

  @Test
  void clientsThroughEachStack() throws Exception {
    BenchConfig config = BenchConfig.fromSystemProperties();
    double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    List<RsClientsReport.Window> windows = new ArrayList<>();
    List<RsClientsReport.ClusterFacts> clusters = new ArrayList<>();
    for (int round = 1 - config.warmupRounds(); round <= config.rounds(); round++) {
      boolean measured = round >= 1;
      for (String dataset : config.datasets()) {
        List<ClientStack> order = new ArrayList<>(config.stacks());
        if (round % 2 == 0) {
          java.util.Collections.reverse(order);
        }
        for (ClientStack stack : order) {
          runCluster(config, stack, dataset, round, measured ? windows : new ArrayList<>(),
              measured ? clusters : new ArrayList<>());
        }
      }
    }
    double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    String report = RsClientsReport.generate(config, windows, clusters, loadBefore, loadAfter);
    System.out.println(report);
    Path dir = config.smoke() ? Path.of("target") : Path.of(System.getProperty("blockcache.rsclients.results", "target"));
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(config.smoke() ? "report-rs-clients-smoke.md" : "report-rs-clients.md"), report,
        StandardCharsets.UTF_8);
  }

  private static void runCluster(BenchConfig config, ClientStack stack, String dataset, int round,
      List<RsClientsReport.Window> windows, List<RsClientsReport.ClusterFacts> clusters) throws Exception {
    boolean fits = dataset.equals("fits");
    int records = config.smoke() ? (fits ? 1_000 : 4_000) : (fits ? FITS_RECORDS : LARGE_RECORDS);
    try (ClientCluster cluster = ClientCluster.start(
        new ClientCluster.Spec(stack, L1_BYTES, L2_MB, config.device(), 2, BUCKET_SIZES))) {
      TableName ycsb = TableName.valueOf(YcsbRun.TABLE);
      cluster.createTable(ycsb, YcsbRun.FAMILY, ClientCluster.digitSplits("user", REGIONS));
      YcsbRun.load(cluster.connection(), records, config.ycsbThreads());
      settle(cluster, ycsb);
      int peRows = config.smoke() ? 1_000 : PE_ROWS;
      Configuration conf = cluster.util().getConfiguration();
      if (fits) {
        PeRun.load(conf, peRows, REGIONS);
        cluster.spread(TableName.valueOf(PeRun.TABLE));
        settle(cluster, TableName.valueOf(PeRun.TABLE));
      }
      long datasetBytes = storeFileBytes(cluster, ycsb);
      Duration window = Duration.ofSeconds(config.seconds());
      YcsbRun.run(cluster.connection(), YcsbWorkload.C, records, config.ycsbThreads(), config.maxOperations(),
          window);
      for (YcsbWorkload workload : List.of(YcsbWorkload.C, YcsbWorkload.A, YcsbWorkload.F,
          YcsbWorkload.UPDATE_ONLY)) {
        RsProbe before = RsProbe.take(cluster);
        YcsbRun.Result r = YcsbRun.run(cluster.connection(), workload, records, config.ycsbThreads(),
            config.maxOperations(), window);
        assertEquals(0, r.wrongReads() + r.failedReads(), stack + " " + workload + ": reads YCSB found wrong");
        windows.add(RsClientsReport.Window.ycsb(stack, round, dataset, r, RsProbe.take(cluster).since(before)));
      }
      if (fits) {
        for (PeCommand command : peCommands(config)) {
          RsProbe before = RsProbe.take(cluster);
          PeRun.Result r = runPe(conf, command, peRows);
          windows.add(RsClientsReport.Window.pe(stack, round, dataset, r, RsProbe.take(cluster).since(before)));
        }
      }
      clusters.add(facts(cluster, stack, round, dataset, datasetBytes));
    }
  }

  /** One PE invocation: options, command, client threads, operations per client. */
  private record PeCommand(List<String> options, String command, int threads, int rowsPerClient) {}

  /**
   * randomRead and the multi-get of 100 at every thread count, scanRange100 at every thread count, scanRange1000 at
   * the middle one; operations per client shrink with the thread count so each window does the same work.
   */
  private static List<PeCommand> peCommands(BenchConfig config) {
    List<PeCommand> commands = new ArrayList<>();
    int total = config.peRowsPerThread();
    for (int threads : config.peThreads()) {
      int perClient = Math.max(1, total / threads);
      commands.add(new PeCommand(List.of(), "randomRead", threads, perClient));
      commands.add(new PeCommand(List.of("--multiGet=100"), "randomRead", threads, Math.max(100, perClient * 4)));
      commands.add(new PeCommand(List.of(), "scanRange100", threads, Math.max(1, perClient / 20)));
    }
    int middle = config.peThreads().get(config.peThreads().size() / 2);
    commands.add(new PeCommand(List.of(), "scanRange1000", middle, Math.max(1, total / middle / 100)));
    return commands;
  }

  private static PeRun.Result runPe(Configuration conf, PeCommand c, int rows) throws Exception {
    ExecutorService pe = Executors.newSingleThreadExecutor();
    try {
      Future<PeRun.Result> result =
          pe.submit(() -> PeRun.run(conf, c.options(), c.command(), c.threads(), c.rowsPerClient(), rows));
      return result.get(PE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } finally {
      pe.shutdownNow();
    }
  }

  /** Flush, major compaction (one HFile per region), a full scan that caches every block, the L2s drained. */
  private static void settle(ClientCluster cluster, TableName table) throws Exception {
    cluster.util().flush(table);
    cluster.util().compact(table, true);
    try (Table t = cluster.connection().getTable(table);
        ResultScanner scanner = t.getScanner(new Scan().setCacheBlocks(true).setCaching(500))) {
      for (Result ignored : scanner) {
        // every row once: its blocks pass through the caches
      }
    }
    for (HRegionServer rs : cluster.regionServers()) {
      RegionServerProbes.awaitSettled(ClientCluster.cacheOf(rs).getSecondLevelCache());
    }
  }

  private static long storeFileBytes(ClientCluster cluster, TableName table) {
    long bytes = 0;
    for (HRegionServer rs : cluster.regionServers()) {
      for (HRegion region : rs.getRegions(table)) {
        for (HStore store : region.getStores()) {
          bytes += store.getStorefilesSize();
        }
      }
    }
    return bytes;
  }

  private static RsClientsReport.ClusterFacts facts(ClientCluster cluster, ClientStack stack, int round,
      String dataset, long datasetBytes) {
    long l1Bytes = 0;
    long l1DataBlocks = 0;
    long l2Bytes = 0;
    long l2Blocks = 0;
    long dataBlocks = 0;
    for (HRegionServer rs : cluster.regionServers()) {
      l1Bytes += ClientCluster.cacheOf(rs).getFirstLevelCache().getCurrentSize();
      l1DataBlocks += ClientCluster.cacheOf(rs).getFirstLevelCache().getDataBlockCount();
      l2Bytes += ClientCluster.cacheOf(rs).getSecondLevelCache().getCurrentSize();
      l2Blocks += ClientCluster.cacheOf(rs).getSecondLevelCache().getBlockCount();
      for (HRegion region : rs.getRegions(TableName.valueOf(YcsbRun.TABLE))) {
        for (HStore store : region.getStores()) {
          for (HStoreFile file : store.getStorefiles()) {
            dataBlocks += file.getReader().getHFileReader().getTrailer().getDataIndexCount();
          }
        }
      }
    }
    System.gc(); // heap in use after a full collection: what the caches and the cluster hold, not garbage
    long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    return new RsClientsReport.ClusterFacts(stack, round, dataset, datasetBytes, dataBlocks, l1Bytes, l1DataBlocks,
        l2Bytes, l2Blocks, heapUsed);
  }
}
