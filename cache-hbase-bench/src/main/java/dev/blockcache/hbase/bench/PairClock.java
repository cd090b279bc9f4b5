package dev.blockcache.hbase.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
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
 * {@code cpuSpeedup}, the same by CPU time; {@code hbaseHeapBytesPerBlock} and {@code competitorHeapBytesPerBlock},
 * each L2's heap per cached block as its {@link RegionStack} measured it when the trial opened.
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

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  public double hbaseUsPerGet;
  public double competitorUsPerGet;
  public double speedup;
  public double cpuSpeedup;
  public double hbaseHeapBytesPerBlock;
  public double competitorHeapBytesPerBlock;

  private final long[] nanos = new long[2];
  private final long[] cpuNanos = new long[2];
  private final long[] gets = new long[2];
  private int side;
  private int inBatch;
  private long batchStart;
  private long batchCpuStart;
  private int shares;

  /** The side the next get reads ({@link #HBASE} or {@link #COMPETITOR}). */
  int side() {
    return side;
  }

  /** Counts one get on the current side; at the end of a batch, books its time and switches sides. */
  void done() {
    if (++inBatch < BATCH) {
      return;
    }
    long now = System.nanoTime();
    long cpu = THREADS.getCurrentThreadCpuTime();
    nanos[side] += now - batchStart;
    cpuNanos[side] += cpu - batchCpuStart;
    gets[side] += inBatch;
    inBatch = 0;
    side ^= 1;
    batchStart = System.nanoTime();
    batchCpuStart = THREADS.getCurrentThreadCpuTime();
  }

  @Setup(Level.Iteration)
  public void start(BenchmarkParams params, ThreadParams thread, IterationParams iteration) {
    shares = thread.getThreadCount() * iteration.getCount() * Math.max(1, params.getForks());
    Arrays.fill(nanos, 0);
    Arrays.fill(cpuNanos, 0);
    Arrays.fill(gets, 0);
    inBatch = 0;
    batchStart = System.nanoTime();
    batchCpuStart = THREADS.getCurrentThreadCpuTime();
  }

  @TearDown(Level.Iteration)
  public void finish(RegionPairBenchmark bench) {
    double hbase = perGet(nanos, HBASE);
    double competitor = perGet(nanos, COMPETITOR);
    hbaseUsPerGet = hbase / 1_000 / shares;
    competitorUsPerGet = competitor / 1_000 / shares;
    speedup = hbase / competitor / shares;
    cpuSpeedup = perGet(cpuNanos, HBASE) / perGet(cpuNanos, COMPETITOR) / shares;
    hbaseHeapBytesPerBlock = bench.stack(HBASE).heapBytesPerBlock() / shares;
    competitorHeapBytesPerBlock = bench.stack(COMPETITOR).heapBytesPerBlock() / shares;
  }

  /** Gets booked to {@code side} since the iteration started. */
  long gets(int side) {
    return gets[side];
  }

  private double perGet(long[] times, int s) {
    return gets[s] == 0 ? Double.NaN : (double) times[s] / gets[s];
  }
}
