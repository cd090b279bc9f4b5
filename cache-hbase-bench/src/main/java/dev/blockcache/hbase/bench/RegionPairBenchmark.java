package dev.blockcache.hbase.bench;

import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * {@code HRegion.get} through HBase's {@code BucketCache} and through a competitor L2 (ours offheap, or the floor) in
 * the same fork, in alternating batches ({@link PairClock}): two regions over the same HFile, each in its own
 * {@link RegionStack} (its own L1 and L2), over {@link #dataset} ({@link RegionGetBenchmark.Dataset}: in the L2, or 4×
 * it, where most gets read the HFile and offer the block to an evicting L2). The
 * ratio of the two sides' time per get ({@code speedup}) is what {@link RegionGetBenchmark} measures with one fork per
 * competitor, without the fork-to-fork spread: forks of either L2 settle at throughputs far apart and switch
 * between them within a fork, which decides a pair of forks more than the L2 does (docs/decisions.md#benchmarks).
 *
 * <p>Both L2s share the JVM, so HBase's read path is compiled with both behind its L2 call: its calls into the L2 are
 * bimorphic rather than monomorphic, alike for both sides. The score (gets per second of both sides together) is
 * not a competitor's; read the aux counters.
 *
 * <p>Command: {@code ./mvnw -B -Pbench verify -pl cache-hbase-bench -am -Dbench.include=RegionPairBenchmark}.
 *
 * <p>Thread-safety: the regions and caches are shared by the benchmark threads and are thread-safe.
 */
@State(Scope.Benchmark)
public class RegionPairBenchmark extends RegionBenchmarkDefaults {
  /** Random gets per side of the setup's JIT warm-up. */
  private static final int WARMUP_GETS = 10_000;

  /**
   * The side compared with HBase's {@code BucketCache} (offheap), which is always the other: ours offheap, or the
   * floor ({@link RegionCompetitor#FLOOR_PREBUILT}: what an L2 that does nothing on a get gains, the ceiling of
   * {@code speedup}).
   */
  @Param({"OURS_OFFHEAP", "FLOOR_PREBUILT"})
  RegionCompetitor competitor;

  @Param({"IN_CACHE", "FOUR_TIMES"})
  RegionGetBenchmark.Dataset dataset;

  /**
   * The side {@link #competitor} is compared with, reported as {@code hbase*}: HBase's {@code BucketCache} offheap,
   * or on its {@code file:} engine ({@link RegionCompetitor#HBASE_FILE}) to compare {@code OURS_FILE} like for like.
   */
  @Param({"HBASE_BUCKET"})
  RegionCompetitor baseline;

  private final RegionStack[] stacks = new RegionStack[2];

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) throws IOException {
    int megabytes = dataset.megabytes;
    stacks[PairClock.HBASE] = RegionStack.open(baseline, megabytes);
    stacks[PairClock.COMPETITOR] = RegionStack.open(competitor, megabytes);
    if (params.getMeasurement().getTime().convertTo(TimeUnit.MILLISECONDS)
        >= RegionGetBenchmark.SMOKE_ITERATION_MS) {
      warmReadPaths();
    }
  }

  /** {@value #WARMUP_GETS} random gets per side, alternating, before JMH's warmup iterations. */
  private void warmReadPaths() throws IOException {
    SplittableRandom random = new SplittableRandom();
    for (int i = 0; i < WARMUP_GETS; i++) {
      for (RegionStack stack : stacks) {
        stack.get(random.nextLong(stack.rows()));
      }
    }
    for (RegionStack stack : stacks) {
      stack.drain();
    }
  }

  /** Closes both stacks (the one that opened, if the other failed to). */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try {
      closeIfOpen(stacks[PairClock.HBASE]);
    } finally {
      closeIfOpen(stacks[PairClock.COMPETITOR]);
    }
  }

  private static void closeIfOpen(RegionStack stack) throws IOException {
    if (stack != null) {
      stack.close();
    }
  }

  /** The stack of {@code side} ({@link PairClock#HBASE} or {@link PairClock#COMPETITOR}). */
  RegionStack stack(int side) {
    return stacks[side];
  }

  /** Per-thread random rows. */
  @State(Scope.Thread)
  public static class Rows {
    final SplittableRandom random = new SplittableRandom();
  }

  private int get(Rows rows, PairClock clock) throws IOException {
    RegionStack stack = stacks[clock.side()];
    long id = rows.random.nextLong(stack.rows());
    long start = System.nanoTime();
    int length = stack.get(id);
    clock.done(System.nanoTime() - start);
    return length;
  }

  @Benchmark @Threads(1)
  public void getT1(Rows rows, PairClock clock, Blackhole bh) throws IOException {
    bh.consume(get(rows, clock));
  }

  @Benchmark @Threads(2)
  public void getT2(Rows rows, PairClock clock, Blackhole bh) throws IOException {
    bh.consume(get(rows, clock));
  }
}
