package dev.blockcache.hbase.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.openjdk.jmh.annotations.Benchmark;
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
 * the same L1 (HBase's {@code LruBlockCache}, {@value RegionStack#L1_MB} MiB, index and bloom blocks) in HBase's
 * {@code CombinedBlockCache}, over the same HFile.
 *
 * <p>Workload: one region on the local filesystem ({@link RegionDataset}: 64 KiB blocks, ROW bloom, 544-byte rows),
 * an L2 of {@value RegionStack#L2_MB} MiB, and a dataset that fits it ({@link Dataset#IN_CACHE}, 24 MiB: every get is served by
 * the L2 once warm) or is 4× its size ({@link Dataset#FOUR_TIMES}, 128 MiB: most data blocks come from the HFile,
 * through the OS page cache, and are offered to the L2, which evicts). Keys are uniformly random rows, built per
 * operation. {@code get*}: one {@code Get} of one row; {@code scan*}: a {@code Scan} of {@value #SCAN_ROWS} rows from
 * a random row. Score: operations per second; aux counters ({@link RegionLatency}): p99 latency in µs, the L2 hit
 * ratio, heap bytes per cached L2 block and the empty L2's heap.
 *
 * <p>Setup, per trial: {@link RegionStack} opens the region, pays the one-off costs of a first L2 with a throwaway one
 * ({@code oneOffHeapKib}), fills the L2 and measures its heap (per cached block: {@code heapBytesPerBlock}; the empty
 * L2's: {@code fixedHeapKib}); then {@value #WARMUP_GETS} random gets (and a tenth as many scans) start the JIT on
 * the read path (skipped in smoke runs). Gets per second still rise about fivefold over the first 6–8 s of a fork
 * while the JIT compiles HBase's read path, so the warmup is 8 × 2 s in full mode (annotated) and 10 × 1 s in quick
 * mode ({@code QuickCells.quickWarmup}), not the quick mode's 2 × 300 ms.
 *
 * <p>Quick mode runs the gets at 1 and 2 threads over the in-cache dataset with HBase's BucketCache and ours offheap;
 * {@code OURS_FILE} and the scans run in full mode and on request ({@code dev.blockcache.jmh.plan.QuickCells}).
 *
 * <p>Command: {@code ./mvnw -B -Pbench verify -pl cache-hbase-bench -am -Dbench.include=RegionGetBenchmark}; the
 * JSON and report go to {@code results/hbase-region/}.
 *
 * <p>Thread-safety: the region and caches are shared by the benchmark threads and are thread-safe.
 */
@State(Scope.Benchmark)
public class RegionGetBenchmark extends RegionBenchmarkDefaults {
  /** Rows per scan. */
  static final int SCAN_ROWS = 10;
  /**
   * Measurement iterations shorter than this are a smoke run's (a check that the benchmark runs), whose figures
   * nobody reads: its setup skips the JIT warm-up.
   */
  static final long SMOKE_ITERATION_MS = 300;
  /** Random gets of the setup's JIT warm-up. */
  private static final int WARMUP_GETS = 10_000;

  /** The dataset's size against the L2's. */
  public enum Dataset {
    IN_CACHE(24), FOUR_TIMES(4 * RegionStack.L2_MB);

    final int megabytes;

    Dataset(int megabytes) {
      this.megabytes = megabytes;
    }
  }

  @Param({"HBASE_BUCKET", "OURS_OFFHEAP", "OURS_FILE"})
  RegionCompetitor competitor;

  @Param({"IN_CACHE", "FOUR_TIMES"})
  Dataset dataset;

  private RegionStack stack;

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) throws IOException {
    stack = RegionStack.open(competitor, dataset.megabytes);
    if (params.getMeasurement().getTime().convertTo(TimeUnit.MILLISECONDS) >= SMOKE_ITERATION_MS) {
      warmReadPath();
    }
  }

  /**
   * {@value #WARMUP_GETS} random gets and a tenth as many scans, so that every path a measured operation takes
   * (gets and scans, L1 and L2 hits) has run before JMH's warmup iterations bring the JIT to steady state.
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
    stack.drain();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    stack.close();
  }

  RegionStack stack() {
    return stack;
  }

  /** Per-thread random rows and the scan's cell list. */
  @State(Scope.Thread)
  public static class ThreadState {
    final SplittableRandom random = new SplittableRandom();
    final List<Cell> cells = new ArrayList<>();
  }

  private int get(ThreadState t, RegionLatency latency) throws IOException {
    long id = t.random.nextLong(stack.rows());
    long start = System.nanoTime();
    int length = stack.get(id);
    latency.record(System.nanoTime() - start);
    return length;
  }

  private int scan(ThreadState t, RegionLatency latency) throws IOException {
    long id = t.random.nextLong(stack.rows() - SCAN_ROWS);
    long start = System.nanoTime();
    Scan scan = new Scan().withStartRow(RegionDataset.rowKey(id)).withStopRow(RegionDataset.rowKey(id + SCAN_ROWS));
    int rows = 0;
    try (RegionScanner scanner = stack.region().getScanner(scan)) {
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
