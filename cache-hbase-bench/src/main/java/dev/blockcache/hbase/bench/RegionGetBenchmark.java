package dev.blockcache.hbase.bench;

import dev.blockcache.jmh.BenchmarkDefaults;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Rows read through HBase's own read path, {@code HRegion.get} and a short {@code Scan}, with data blocks in the L2
 * under test ({@link RegionCompetitor}: HBase's {@code BucketCache} offheap, ours offheap and {@code file:}), behind
 * the same L1 (HBase's {@code LruBlockCache}, {@value #L1_MB} MiB, index and bloom blocks) in HBase's
 * {@code CombinedBlockCache}, over the same HFile.
 *
 * <p>Workload: one region on the local filesystem ({@link RegionDataset}: 64 KiB blocks, ROW bloom, 544-byte rows),
 * an L2 of {@value #L2_MB} MiB, and a dataset that fits it ({@link Dataset#IN_CACHE}, 24 MiB: every get is served by
 * the L2 once warm) or is 4× its size ({@link Dataset#FOUR_TIMES}, 128 MiB: most data blocks come from the HFile,
 * through the OS page cache, and are offered to the L2, which evicts). Keys are uniformly random rows, built per
 * operation. {@code get*}: one {@code Get} of one row; {@code scan*}: a {@code Scan} of {@value #SCAN_ROWS} rows from
 * a random row. Score: operations per second; aux counters ({@link RegionLatency}): p99 latency in µs, the L2 hit
 * ratio, heap bytes per cached L2 block and the empty L2's heap.
 *
 * <p>Setup, per trial: the region opens with an empty L2 slot ({@link DeferredL2}); a get of one row in a
 * thousand loads the L1's index and bloom blocks. Used heap after forced GCs is taken three times: before the L2 is
 * created, after it is created and attached, and after gets of one row in every half block have filled it (repeated,
 * with the writers drained after each, until its block count stops growing: writer queues drop blocks when full, in
 * both caches). The second minus the first is the empty L2's fixed heap ({@code fixedHeapKib}); the third minus the
 * second, divided by the L2's block count, is its heap per cached block ({@code heapBytesPerBlock}: index, keys,
 * allocator state, and whatever the first inserts load once, such as classes and pool metadata, which at a few
 * hundred blocks still weigh; cache-jmh's {@code L2HeapPerEntry} gives the figure at 1,000,000 blocks). Block bytes
 * are off the heap in all three. Then {@value #WARMUP_GETS} random gets (and scans) let the JIT compile the read
 * path (skipped in smoke runs).
 *
 * <p>Quick mode runs the gets at 1 and 2 threads over both datasets with HBase's BucketCache and ours offheap;
 * {@code OURS_FILE} and the scans run in full mode and on request ({@code dev.blockcache.jmh.plan.QuickCells}).
 *
 * <p>Command: {@code ./mvnw -B -Pbench verify -pl cache-hbase-bench -am -Dbench.include=RegionGetBenchmark}; the
 * JSON and report go to {@code results/hbase-region/}.
 *
 * <p>Thread-safety: the region and caches are shared by the benchmark threads and are thread-safe.
 */
@Fork(value = 2, jvmArgsAppend = {
    "-Xms" + RegionGetBenchmark.HEAP, "-Xmx" + RegionGetBenchmark.HEAP, "-XX:+AlwaysPreTouch",
    "-XX:+UseTransparentHugePages",
    "--add-opens", "java.base/java.nio=ALL-UNNAMED",
    "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens", "java.base/java.lang=ALL-UNNAMED",
    "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true"})
@State(Scope.Benchmark)
public class RegionGetBenchmark extends BenchmarkDefaults {
  /** Heap of every fork: the region, the L1 and the memstore that writes the dataset once, with room to spare. */
  static final String HEAP = "1g";
  /** L2 capacity in MiB, the same for every competitor. */
  static final int L2_MB = 32;
  /** L1 capacity in MiB: holds every index and bloom block of both datasets. */
  static final int L1_MB = 32;
  /** Rows per scan. */
  static final int SCAN_ROWS = 10;
  /**
   * Rows between two gets that load the L1's index and bloom blocks before the L2 exists: the ROW bloom's chunks and
   * the leaf index blocks each cover far more rows than this.
   */
  private static final int INDEX_STRIDE = 1000;
  /** Rows between two gets of the L2's fill: under half the rows of a 64 KiB block, so no block is skipped. */
  private static final int FILL_STRIDE = RegionDataset.BLOCK_SIZE / RegionDataset.ROW_BYTES / 2;
  /**
   * Measurement iterations shorter than this are a smoke run's (a check that the benchmark runs), whose figures
   * nobody reads: its setup skips the JIT warm-up.
   */
  private static final long SMOKE_ITERATION_MS = 300;
  /** Random gets of the setup's JIT warm-up. */
  private static final int WARMUP_GETS = 10_000;
  /** Most warm-up passes while the L2's block count still grows. */
  private static final int MAX_FILL_PASSES = 3;

  /** The dataset's size against the L2's. */
  public enum Dataset {
    IN_CACHE(24), FOUR_TIMES(4 * L2_MB);

    final int megabytes;

    Dataset(int megabytes) {
      this.megabytes = megabytes;
    }
  }

  @Param({"HBASE_BUCKET", "OURS_OFFHEAP", "OURS_FILE"})
  RegionCompetitor competitor;

  @Param({"IN_CACHE", "FOUR_TIMES"})
  Dataset dataset;

  private Path scratch;
  private LruBlockCache l1;
  private BlockCache l2;
  private RegionDataset data;
  private RegionDataset.OpenRegion open;
  private HRegion region;
  private double heapBytesPerBlock;
  private double fixedHeapKib;

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) throws IOException {
    data = RegionDataset.prepare(dataset.megabytes);
    scratch = Files.createTempDirectory("regionbench");
    l1 = new LruBlockCache((long) L1_MB << 20, RegionDataset.BLOCK_SIZE);
    DeferredL2 slot = new DeferredL2();
    open = data.open(new CombinedBlockCache(l1, slot), scratch);
    region = open.region();
    touchRows(INDEX_STRIDE);
    long beforeL2 = settledHeap();
    l2 = competitor.create(L2_MB, scratch);
    slot.attach(l2);
    long emptyL2 = settledHeap();
    long blocks = 0;
    for (int pass = 0; pass < MAX_FILL_PASSES; pass++) {
      touchRows(FILL_STRIDE);
      competitor.drain(l2);
      long now = l2.getBlockCount();
      if (now <= blocks + blocks / 100 || dataset == Dataset.FOUR_TIMES) {
        break; // stopped growing, or full: one pass over four times the L2 fills it
      }
      blocks = now;
    }
    blocks = l2.getBlockCount();
    heapBytesPerBlock = (double) (settledHeap() - emptyL2) / blocks;
    fixedHeapKib = (emptyL2 - beforeL2) / 1024.0;
    if (params.getMeasurement().getTime().convertTo(TimeUnit.MILLISECONDS) >= SMOKE_ITERATION_MS) {
      warmReadPath();
    }
  }

  /**
   * {@value #WARMUP_GETS} random gets and a tenth as many scans, so that the JIT has compiled HBase's read path
   * before JMH's warmup iterations (which are too short for it in quick mode).
   */
  private void warmReadPath() throws IOException {
    ThreadState t = new ThreadState();
    RegionLatency ignored = new RegionLatency();
    for (int i = 0; i < WARMUP_GETS; i++) {
      get(t, ignored);
      if (i % 10 == 0) {
        scan(t, ignored);
      }
    }
    competitor.drain(l2);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try {
      open.close();
    } finally {
      l2.shutdown();
      l1.shutdown();
      RegionDataset.deleteTree(scratch);
    }
  }

  double heapBytesPerBlock() {
    return heapBytesPerBlock;
  }

  double fixedHeapKib() {
    return fixedHeapKib;
  }

  long l2Hits() {
    return l2.getStats().getHitCount();
  }

  long l2Requests() {
    return l2.getStats().getRequestCount();
  }

  /** Gets one row in every {@code stride}. */
  private void touchRows(int stride) throws IOException {
    for (long id = 0; id < data.rows(); id += stride) {
      if (region.get(new Get(RegionDataset.rowKey(id))).isEmpty()) {
        throw new IllegalStateException("row " + id + " missing");
      }
    }
  }

  /** Used heap after full GCs, once two in a row agree within 16 KiB (at most 10). */
  private static long settledHeap() {
    long previous = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (Math.abs(previous - used) < 16 * 1024) {
        return used;
      }
      previous = used;
    }
    return previous;
  }

  /** Per-thread random rows and the scan's cell list. */
  @State(Scope.Thread)
  public static class ThreadState {
    final SplittableRandom random = new SplittableRandom();
    final List<Cell> cells = new ArrayList<>();
  }

  private int get(ThreadState t, RegionLatency latency) throws IOException {
    long id = t.random.nextLong(data.rows());
    long start = System.nanoTime();
    Result r = region.get(new Get(RegionDataset.rowKey(id)));
    latency.record(System.nanoTime() - start);
    if (r.isEmpty()) {
      throw new IllegalStateException("row " + id + " missing");
    }
    return r.rawCells()[0].getValueLength();
  }

  private int scan(ThreadState t, RegionLatency latency) throws IOException {
    long id = t.random.nextLong(data.rows() - SCAN_ROWS);
    long start = System.nanoTime();
    Scan scan = new Scan().withStartRow(RegionDataset.rowKey(id)).withStopRow(RegionDataset.rowKey(id + SCAN_ROWS));
    int rows = 0;
    try (RegionScanner scanner = region.getScanner(scan)) {
      boolean more;
      do {
        t.cells.clear();
        more = scanner.next(t.cells);
        rows += t.cells.isEmpty() ? 0 : 1;
      } while (more);
    }
    latency.record(System.nanoTime() - start);
    if (rows != SCAN_ROWS) {
      throw new IllegalStateException("scan from row " + id + " returned " + rows + " rows");
    }
    return rows;
  }

  @Benchmark @Threads(1)
  public void getT1(ThreadState t, RegionLatency latency, Blackhole bh) throws IOException {
    bh.consume(get(t, latency));
  }

  @Benchmark @Threads(2)
  public void getT2(ThreadState t, RegionLatency latency, Blackhole bh) throws IOException {
    bh.consume(get(t, latency));
  }

  @Benchmark @Threads(1)
  public void scanT1(ThreadState t, RegionLatency latency, Blackhole bh) throws IOException {
    bh.consume(scan(t, latency));
  }

  @Benchmark @Threads(2)
  public void scanT2(ThreadState t, RegionLatency latency, Blackhole bh) throws IOException {
    bh.consume(scan(t, latency));
  }
}
