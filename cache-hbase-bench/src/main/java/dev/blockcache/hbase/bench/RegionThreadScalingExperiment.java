package dev.blockcache.hbase.bench;

import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Experiment 2 through HBase's own read path (HBASE-11425's shape; seeds/hbase-offheap-read-path-2015.txt): 100-row
 * multi-gets, each row an {@code HRegion.get} as a RegionServer's multi call makes it, from a dataset held whole by an
 * offheap L2, zero-copy reads against copy-to-heap, at 5, 10, 20, 25, 50 and 75 threads (one method per count). The
 * mini-engine version is cache-jmh's {@code ThreadScalingExperiment}; this one pays everything a RegionServer's read
 * pays above the cache (HBase's scanners, bloom and index blocks in its L1, cells, its reference counting).
 *
 * <p>Competitors ({@link RegionCompetitor}): {@code OURS_OFFHEAP} (a hit is a view of the slot, released by HBase's
 * release of the block), {@code OURS_OFFHEAP_COPY} ({@code hbase.bucketcache.read.copy=true}: every hit copied onto
 * the heap) and HBase's {@code BucketCache} offheap (zero-copy since HBase 2.0) as the baseline of the ratios.
 * Workload: the 24 MiB dataset of {@link RegionGetBenchmark} in a {@value RegionStack#L2_MB} MiB L2, every data block
 * in it (100% L2 hits); rows uniformly random. Score: rows per second; run with {@code bench.prof=gc} for allocation
 * and GC time.
 *
 * <p>Published (2015, 32-core servers): copy-to-heap peaks near 20 threads then falls (GC); zero-copy keeps rising.
 * Every count above the machine's core count measures contention and oversubscription, not parallelism.
 *
 * <p>Full mode only (the quick suite leaves it out, {@code dev.blockcache.jmh.plan.QuickCells}). Command:
 * {@code ./mvnw -B -Pbench verify -pl cache-hbase-bench -am -Dbench.include=RegionThreadScalingExperiment
 * -Dbench.full=true}; the JSON and report go to {@code results/hbase-region/}.
 *
 * <p>Thread-safety: the region and caches are shared by the benchmark threads and are thread-safe.
 */
@State(Scope.Benchmark)
public class RegionThreadScalingExperiment extends RegionBenchmarkDefaults {
  /** Rows per multi-get, as in the published test. */
  static final int ROWS_PER_GET = 100;
  /** Multi-gets of the setup's JIT warm-up. */
  private static final int WARMUP_MULTI_GETS = 200;

  @Param({"HBASE_BUCKET", "OURS_OFFHEAP", "OURS_OFFHEAP_COPY"})
  RegionCompetitor competitor;

  private RegionStack stack;

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) throws IOException {
    stack = RegionStack.open(competitor, RegionGetBenchmark.Dataset.IN_CACHE.megabytes);
    if (params.getMeasurement().getTime().convertTo(TimeUnit.MILLISECONDS)
        >= RegionGetBenchmark.SMOKE_ITERATION_MS) {
      ThreadState t = new ThreadState();
      for (int i = 0; i < WARMUP_MULTI_GETS; i++) {
        multiGet(t);
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    stack.close();
  }

  /** Per-thread random rows. */
  @State(Scope.Thread)
  public static class ThreadState {
    final SplittableRandom random = new SplittableRandom();
  }

  private long multiGet(ThreadState t) throws IOException {
    long bytes = 0;
    for (int i = 0; i < ROWS_PER_GET; i++) {
      bytes += stack.get(t.random.nextLong(stack.rows()));
    }
    return bytes;
  }

  @Benchmark @Threads(5) @OperationsPerInvocation(ROWS_PER_GET)
  public void threads05(ThreadState t, Blackhole bh) throws IOException {
    bh.consume(multiGet(t));
  }

  @Benchmark @Threads(10) @OperationsPerInvocation(ROWS_PER_GET)
  public void threads10(ThreadState t, Blackhole bh) throws IOException {
    bh.consume(multiGet(t));
  }

  @Benchmark @Threads(20) @OperationsPerInvocation(ROWS_PER_GET)
  public void threads20(ThreadState t, Blackhole bh) throws IOException {
    bh.consume(multiGet(t));
  }

  @Benchmark @Threads(25) @OperationsPerInvocation(ROWS_PER_GET)
  public void threads25(ThreadState t, Blackhole bh) throws IOException {
    bh.consume(multiGet(t));
  }

  @Benchmark @Threads(50) @OperationsPerInvocation(ROWS_PER_GET)
  public void threads50(ThreadState t, Blackhole bh) throws IOException {
    bh.consume(multiGet(t));
  }

  @Benchmark @Threads(75) @OperationsPerInvocation(ROWS_PER_GET)
  public void threads75(ThreadState t, Blackhole bh) throws IOException {
    bh.consume(multiGet(t));
  }
}
