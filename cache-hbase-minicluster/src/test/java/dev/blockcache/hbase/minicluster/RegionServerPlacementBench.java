package dev.blockcache.hbase.minicluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.util.ResourceLeakDetector;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 39's RegionServer benchmark cell: single-row gets over RPC from a client to a RegionServer in HBase's mini
 * cluster (one master, one RegionServer, this JVM, loopback), the dataset in the L2 (offheap) and several times
 * larger than the L1, for each {@link RegionServerStack}: HBase's BucketCache, ours through the external hook, ours
 * exclusive. Each stack gets its own cluster, rounds alternate the stacks, and every figure is read in the same run,
 * so the ratios to HBase's BucketCache are this run's.
 *
 * <p>Workload: {@value #ROWS} rows ({@value #SMOKE_ROWS} in a smoke run) of {@value #VALUE_BYTES} bytes in 2
 * regions (64 KiB HFile blocks, one flush), read once in order (multi-gets) so every data block is cached, then
 * {@value #CLIENT_THREADS} client threads doing gets of uniformly random rows: a warm-up, then the measured window.
 * Measured: gets per second; heap allocated per get by the RegionServer's RPC handler threads (ThreadMXBean, the
 * threads that run the read path) and by the whole JVM (client included); GC time in the window; L1 and L2 hits per
 * get, and the data blocks in HBase's L1 at the end.
 *
 * <p>Not in the default test run: {@code ./mvnw -B -Pbench verify -pl cache-hbase-minicluster -am} runs it (the
 * module's bench profile, which honours {@code bench.include} and {@code bench.smoke}), or
 * {@code -Dblockcache.rsbench=true} on a test run. {@code -Dblockcache.rsbench.seconds} (default 20) sets the
 * measured window, {@code -Dblockcache.rsbench.rounds} (default 1) the rounds. It writes
 * {@code report-rs-placement.md} into {@code blockcache.rsbench.results} (default {@code target/}).
 *
 * <p>Thread-safety: the client threads share only atomic counters; JUnit's thread drives the rest.
 */
@Tag(RegionServerLevelTest.LARGE_TESTS)
@EnabledIfSystemProperty(named = "blockcache.rsbench", matches = "true")
class RegionServerPlacementBench {
  private static final TableName TABLE = TableName.valueOf("rsbench");
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");
  /** About 80 MB of cells: in a 192 MB L2, five times the 16 MB L1. */
  private static final int ROWS = 40_000;
  private static final int VALUE_BYTES = 2_000;
  private static final int CLIENT_THREADS = 2;
  private static final long L1_BYTES = 16L << 20;
  private static final int L2_MB = 192;
  private static final int WARMUP_SECONDS = 10;
  /** Warm-up and measured seconds of a {@code bench.smoke} run: it runs, its figures mean nothing. */
  private static final int SMOKE_SECONDS = 2;
  /** Rows of a {@code bench.smoke} run: still more blocks than the L1 holds. */
  private static final int SMOKE_ROWS = 10_000;
  /** Gets per multi-get RPC while the rows are read once to cache their blocks. */
  private static final int PRIMING_BATCH = 500;
  /** Bound on the gets of one window, whatever its length. */
  private static final long MAX_GETS_PER_WINDOW = 50_000_000L;

  /**
   * The test session sets our netty's leak detector to PARANOID, which records every access of every buffer of our
   * L2: a benchmark runs without it (the bench profile starts HBase's relocated one disabled too).
   */
  @BeforeAll
  static void withoutLeakDetector() {
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
  }

  @AfterAll
  static void leakDetectorBack() {
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
  }

  @Test
  void getsThroughEachStack() throws Exception {
    String include = System.getProperty("bench.include", ".*");
    assumeTrue(Pattern.compile(include).matcher(getClass().getSimpleName()).find(),
        "bench.include=" + include + " names another benchmark");
    boolean smoke = Boolean.getBoolean("bench.smoke");
    int seconds = smoke ? SMOKE_SECONDS : Integer.getInteger("blockcache.rsbench.seconds", 20);
    int warmup = smoke ? SMOKE_SECONDS : WARMUP_SECONDS;
    int rows = smoke ? SMOKE_ROWS : ROWS;
    int rounds = Integer.getInteger("blockcache.rsbench.rounds", 1);
    Map<RegionServerStack, List<Window>> results = new EnumMap<>(RegionServerStack.class);
    for (int round = 0; round < rounds; round++) {
      for (RegionServerStack stack : RegionServerStack.values()) {
        results.computeIfAbsent(stack, s -> new ArrayList<>()).add(run(stack, rows, warmup, seconds));
      }
    }
    String report = report(results, rows, warmup, seconds, rounds);
    System.out.println(report);
    Path dir = Path.of(System.getProperty("blockcache.rsbench.results", "target"));
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("report-rs-placement.md"), report, StandardCharsets.UTF_8);
  }

  private static Window run(RegionServerStack stack, int rows, int warmup, int seconds) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.bucketcache.ioengine", "offheap");
    conf.set("hbase.bucketcache.size", Integer.toString(L2_MB));
    conf.setFloat("hfile.block.cache.size", (float) L1_BYTES / Runtime.getRuntime().maxMemory());
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    stack.configure(conf);
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    util.startMiniZKCluster();
    util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1).numRegionServers(1).build());
    try (Table table = util.createTable(TABLE, new byte[][] {FAMILY}, new byte[][] {row(rows / 2)})) {
      load(util, table, rows);
      HRegionServer rs = util.getMiniHBaseCluster().getRegionServer(0);
      CombinedBlockCache cache = (CombinedBlockCache) rs.getBlockCache().orElseThrow();
      readOnce(table, rows);
      RegionServerProbes.awaitSettled(cache.getSecondLevelCache());
      gets(util, rows, warmup, rs, cache);
      return gets(util, rows, seconds, rs, cache);
    } finally {
      util.shutdownMiniHBaseCluster();
      util.shutdownMiniZKCluster();
    }
  }

  private static void load(HBaseTestingUtility util, Table table, int rows) throws IOException {
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      puts.add(new Put(row(i)).addColumn(FAMILY, QUALIFIER, value(i)));
      if (puts.size() == 1_000) {
        table.put(puts);
        puts.clear();
      }
    }
    table.put(puts);
    util.flush(TABLE);
  }

  /** Reads every row once, in order, so that every data block is cached before the windows. */
  private static void readOnce(Table table, int rows) throws IOException {
    List<Get> gets = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      gets.add(new Get(row(i)));
      if (gets.size() == PRIMING_BATCH || i == rows - 1) {
        for (Result r : table.get(gets)) {
          assertTrue(r.containsColumn(FAMILY, QUALIFIER), "row not found while priming the cache");
        }
        gets.clear();
      }
    }
  }

  private static Window gets(HBaseTestingUtility util, int rows, int seconds, HRegionServer rs,
      CombinedBlockCache cache) throws Exception {
    long handlerBefore = RegionServerProbes.handlerBytes(rs);
    long jvmBefore = RegionServerProbes.jvmBytes();
    long gcBefore = RegionServerProbes.gcMillis();
    long l1HitsBefore = cache.getFirstLevelCache().getStats().getHitCount();
    long l2HitsBefore = cache.getSecondLevelCache().getStats().getHitCount();
    AtomicLong done = new AtomicLong();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    List<Thread> clients = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < CLIENT_THREADS; t++) {
      SplittableRandom random = new SplittableRandom(42 + t);
      Thread client = new Thread(() -> {
        try (Table table = util.getConnection().getTable(TABLE)) {
          while (System.nanoTime() < end && done.get() < MAX_GETS_PER_WINDOW) {
            int i = random.nextInt(rows);
            Result r = table.get(new Get(row(i)));
            assertArrayEquals(value(i), r.getValue(FAMILY, QUALIFIER));
            done.incrementAndGet();
          }
        } catch (Throwable e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      }, "rsbench-client-" + t);
      clients.add(client);
      client.start();
    }
    for (Thread client : clients) {
      client.join();
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    assertTrue(failures.isEmpty(), "client failed: " + failures);
    long n = done.get();
    return new Window(n / elapsed, (double) (RegionServerProbes.handlerBytes(rs) - handlerBefore) / n,
        (double) (RegionServerProbes.jvmBytes() - jvmBefore) / n, RegionServerProbes.gcMillis() - gcBefore,
        (double) (cache.getFirstLevelCache().getStats().getHitCount() - l1HitsBefore) / n,
        (double) (cache.getSecondLevelCache().getStats().getHitCount() - l2HitsBefore) / n,
        cache.getFirstLevelCache().getDataBlockCount());
  }

  private static String report(Map<RegionServerStack, List<Window>> results, int rows, int warmup, int seconds,
      int rounds) {
    StringBuilder out = new StringBuilder();
    out.append("# RegionServer gets by block cache placement\n\n")
        .append("Generated by `RegionServerPlacementBench` (cache-hbase-minicluster). ").append(rows)
        .append(" rows of ").append(VALUE_BYTES).append(" B in 2 regions (64 KiB blocks), L1 ").append(L1_BYTES >> 20)
        .append(" MB, L2 offheap ").append(L2_MB).append(" MB; ").append(CLIENT_THREADS)
        .append(" client threads, uniform random single-row gets over RPC; warm-up ").append(warmup)
        .append(" s, measured ").append(seconds).append(" s; ").append(rounds)
        .append(" round(s), stacks alternating, one mini cluster per stack and round. `×HBase`: this row's value "
            + "divided by HBase's BucketCache's in the same round.\n\n")
        .append("| stack | round | gets/s | ×HBase | handler B/get | ×HBase | JVM B/get | GC ms | L1 hits/get "
            + "| L2 hits/get | L1 data blocks |\n")
        .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    List<Window> base = results.get(RegionServerStack.HBASE_BUCKET);
    for (Map.Entry<RegionServerStack, List<Window>> stack : results.entrySet()) {
      for (int round = 0; round < stack.getValue().size(); round++) {
        Window w = stack.getValue().get(round);
        Window b = base.get(round);
        out.append(String.format(Locale.ROOT,
            "| %s | %d | %,.0f | %.2f | %,.0f | %.2f | %,.0f | %,d | %.2f | %.2f | %,d |%n", stack.getKey(), round + 1,
            w.getsPerSecond, w.getsPerSecond / b.getsPerSecond, w.handlerBytesPerGet,
            w.handlerBytesPerGet / b.handlerBytesPerGet, w.jvmBytesPerGet, w.gcMillis, w.l1HitsPerGet, w.l2HitsPerGet,
            w.l1DataBlocks));
      }
    }
    double[] load = {ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()};
    out.append(String.format(Locale.ROOT, "%n- JDK %s, %d cores available, heap max %d MB, load average %.2f at the "
        + "end (above the core count: other work shared the machine, absolute figures are noisy)%n",
        System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20, load[0]));
    return out.toString();
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%08d", i));
  }

  private static byte[] value(int i) {
    byte[] v = new byte[VALUE_BYTES];
    for (int j = 0; j < v.length; j++) {
      v[j] = (byte) (i * 31 + j);
    }
    return v;
  }

  /** One measured window of one stack. */
  private record Window(double getsPerSecond, double handlerBytesPerGet, double jvmBytesPerGet, long gcMillis,
      double l1HitsPerGet, double l2HitsPerGet, long l1DataBlocks) {}
}
