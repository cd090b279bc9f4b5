package dev.blockcache.hbase.bench;

import java.lang.management.ManagementFactory;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Which side of a {@link RegionPairBenchmark} a benchmark thread reads, and what each side's gets cost: the thread
 * reads {@value #BATCH} gets from one region, then {@value #BATCH} from the other, and times each batch by the wall
 * clock and by its own CPU time. Whatever slows the machine for a while (another process, the host, a JIT or GC
 * phase) lasts far longer than a batch, so it falls on both sides alike; the two sides' ratio is read from one fork.
 *
 * <p>Aux counters, as {@link RegionLatency} publishes them (each thread's figure divided by threads × iterations ×
 * forks, so JMH's sums are means): {@code hbaseUsPerGet} and {@code competitorUsPerGet}, wall time per get of each
 * side; {@code speedup}, HBase's wall time per get over the competitor's (above 1: the competitor is faster);
 * {@code cpuSpeedup}, the same by CPU time; {@code hbaseP99Us} and {@code competitorP99Us}, each side's 99th
 * percentile get latency in an HdrHistogram (the mean over threads of each thread's p99, as {@link RegionLatency}
 * gives it); {@code hbaseBytesPerGet} and {@code competitorBytesPerGet}, the heap each side's gets allocate (the
 * thread's allocation counter, read at each batch's ends); {@code hbaseHeapBytesPerBlock} and
 * {@code competitorHeapBytesPerBlock}, each L2's heap per cached block as its {@link RegionStack} measured it when the
 * trial opened; {@code hbaseL2HitRatio} and {@code competitorL2HitRatio}, each L2's hits over its lookups in the
 * iteration by its own {@code CacheStats}, as HBase's {@code CombinedBlockCache} counts them: it books the repeat
 * lookup of a miss (the one under the block's offset lock) as a second miss, so a dataset that mostly misses shows
 * about 1.8 lookups per get and the ratio is below the share of gets served by the L2. Every benchmark thread
 * reports the same figure.
 *
 * <p>Thread-safety: one instance per benchmark thread ({@link Scope#Thread}).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class PairClock {
  /** Gets in a row on one side: about half a millisecond, far above the clocks' own cost. */
  static final int BATCH = 64;
  static final int HBASE = 0;
  static final int COMPETITOR = 1;

  /** Longest latency the histograms record: 10 s in ns; 3 significant digits. */
  private static final long MAX_NANOS = 10_000_000_000L;
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  public double hbaseUsPerGet;
  public double competitorUsPerGet;
  public double speedup;
  public double cpuSpeedup;
  public double hbaseP99Us;
  public double competitorP99Us;
  public double hbaseBytesPerGet;
  public double competitorBytesPerGet;
  public double hbaseHeapBytesPerBlock;
  public double competitorHeapBytesPerBlock;
  public double hbaseL2HitRatio;
  public double competitorL2HitRatio;

  private final Side[] sides = {new Side(), new Side()};
  private int side;
  private int inBatch;
  private long batchStart;
  private long batchCpuStart;
  private long batchAllocatedStart;
  private int shares;
  private final long[] hitsAtStart = new long[2];
  private final long[] requestsAtStart = new long[2];

  /** The side the next get reads ({@link #HBASE} or {@link #COMPETITOR}). */
  int side() {
    return side;
  }

  /**
   * Counts one get of {@code latencyNanos} on the current side; at the end of a batch, books its time and allocation
   * and switches sides.
   */
  void done(long latencyNanos) {
    Side current = sides[side];
    current.latencies.recordValue(Math.min(Math.max(0, latencyNanos), MAX_NANOS));
    if (++inBatch < BATCH) {
      return;
    }
    current.nanos += System.nanoTime() - batchStart;
    current.cpuNanos += THREADS.getCurrentThreadCpuTime() - batchCpuStart;
    current.allocated += THREADS.getCurrentThreadAllocatedBytes() - batchAllocatedStart;
    current.gets += inBatch;
    inBatch = 0;
    side ^= 1;
    startBatch();
  }

  private void startBatch() {
    batchStart = System.nanoTime();
    batchCpuStart = THREADS.getCurrentThreadCpuTime();
    batchAllocatedStart = THREADS.getCurrentThreadAllocatedBytes();
  }

  @Setup(Level.Iteration)
  public void start(BenchmarkParams params, ThreadParams thread, IterationParams iteration,
      RegionPairBenchmark bench) {
    shares = thread.getThreadCount() * iteration.getCount() * Math.max(1, params.getForks());
    for (int s = HBASE; s <= COMPETITOR; s++) {
      hitsAtStart[s] = bench.stack(s).l2Hits();
      requestsAtStart[s] = bench.stack(s).l2Requests();
    }
    for (Side s : sides) {
      s.reset();
    }
    inBatch = 0;
    startBatch();
  }

  @TearDown(Level.Iteration)
  public void finish(RegionPairBenchmark bench) {
    Side hbase = sides[HBASE];
    Side competitor = sides[COMPETITOR];
    hbaseUsPerGet = hbase.perGet(hbase.nanos) / 1_000 / shares;
    competitorUsPerGet = competitor.perGet(competitor.nanos) / 1_000 / shares;
    speedup = hbase.perGet(hbase.nanos) / competitor.perGet(competitor.nanos) / shares;
    cpuSpeedup = hbase.perGet(hbase.cpuNanos) / competitor.perGet(competitor.cpuNanos) / shares;
    hbaseP99Us = hbase.latencies.getValueAtPercentile(99) / 1_000.0 / shares;
    competitorP99Us = competitor.latencies.getValueAtPercentile(99) / 1_000.0 / shares;
    hbaseBytesPerGet = hbase.perGet(hbase.allocated) / shares;
    competitorBytesPerGet = competitor.perGet(competitor.allocated) / shares;
    hbaseHeapBytesPerBlock = bench.stack(HBASE).heapBytesPerBlock() / shares;
    competitorHeapBytesPerBlock = bench.stack(COMPETITOR).heapBytesPerBlock() / shares;
    hbaseL2HitRatio = hitRatio(bench, HBASE);
    competitorL2HitRatio = hitRatio(bench, COMPETITOR);
  }

  private double hitRatio(RegionPairBenchmark bench, int side) {
    long requests = bench.stack(side).l2Requests() - requestsAtStart[side];
    return requests == 0 ? 0 : (double) (bench.stack(side).l2Hits() - hitsAtStart[side]) / requests / shares;
  }

  /** Gets booked to {@code side} since the iteration started. */
  long gets(int side) {
    return sides[side].gets;
  }

  /** What one side's finished batches took since the iteration started. */
  private static final class Side {
    final Histogram latencies = new Histogram(MAX_NANOS, 3);
    long nanos;
    long cpuNanos;
    long allocated;
    long gets;

    void reset() {
      latencies.reset();
      nanos = 0;
      cpuNanos = 0;
      allocated = 0;
      gets = 0;
    }

    /** {@code total} per booked get, or NaN before the first batch ends. */
    double perGet(long total) {
      return gets == 0 ? Double.NaN : (double) total / gets;
    }
  }
}
