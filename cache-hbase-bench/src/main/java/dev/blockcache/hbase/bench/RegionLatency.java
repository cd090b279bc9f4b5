package dev.blockcache.hbase.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
 * The region benchmarks' secondary figures, published to JMH's JSON as aux counters: each operation's latency in an
 * HdrHistogram (p99 in µs), the benchmark thread's CPU time per operation, the L2's hit ratio over the iteration, and
 * the trial's three heap figures (per cached L2 block, the empty L2's, and the one-off heap of the first L2 of its
 * kind), as {@link RegionStack} measures them.
 *
 * <p>JMH adds an aux counter up over the benchmark threads, the iterations and the forks, so each thread publishes its
 * figure divided by threads × iterations × forks: the JSON's value is the mean over threads and iterations of each thread's
 * p99 (not the p99 of the merged histograms; with symmetric threads the two agree closely), the mean hit ratio, and
 * the trial's heap figures unchanged.
 *
 * <p>Thread-safety: one instance per benchmark thread ({@link Scope#Thread}).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class RegionLatency {
  /** Longest latency the histogram records: 10 s in ns; 3 significant digits. */
  private static final long MAX_NANOS = 10_000_000_000L;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Histogram histogram = new Histogram(MAX_NANOS, 3);
  /** Threads × iterations × forks of the current phase: what JMH's sums are divided by. */
  private int shares;
  private long cpuAtStart;
  private long hitsAtStart;
  private long requestsAtStart;

  /** 99th percentile latency of one operation in µs (divided by threads × iterations × forks). */
  public double p99Us;
  /**
   * CPU time of the benchmark thread per operation in µs (divided by threads × iterations × forks): unlike the
   * throughput, it does not move when other processes take the machine's cores (see cache-jmh's {@code ThreadCpu}).
   * The caches' own threads (writers, HBase's stats thread) are not counted; with the dataset in the L2 they are
   * idle.
   */
  public double cpuUsPerOp;
  /** Heap bytes per cached L2 block, measured once per trial (divided by threads × iterations × forks). */
  public double heapBytesPerBlock;
  /** Heap of the empty L2 in KiB, measured once per trial (divided by threads × iterations × forks). */
  public double fixedHeapKib;
  /**
   * Heap in KiB that the first L2 of the competitor's kind leaves in the JVM for good (classes, static tables, pool
   * arenas; {@link RegionStack}), measured once per trial (divided by threads × iterations × forks).
   */
  public double oneOffHeapKib;
  /** The L2's hit ratio over the iteration (divided by threads × iterations × forks). */
  public double l2HitRatio;

  /** Records one operation's latency. */
  void record(long nanos) {
    histogram.recordValue(Math.min(nanos, MAX_NANOS));
  }

  @Setup(Level.Iteration)
  public void start(RegionGetBenchmark bench, BenchmarkParams params, ThreadParams thread,
      IterationParams iteration) {
    histogram.reset();
    shares = thread.getThreadCount() * iteration.getCount() * Math.max(1, params.getForks());
    cpuAtStart = THREADS.getCurrentThreadCpuTime();
    hitsAtStart = bench.stack().l2Hits();
    requestsAtStart = bench.stack().l2Requests();
  }

  @TearDown(Level.Iteration)
  public void finish(RegionGetBenchmark bench) {
    long ops = histogram.getTotalCount();
    cpuUsPerOp = ops == 0 ? 0 : (THREADS.getCurrentThreadCpuTime() - cpuAtStart) / 1_000.0 / ops / shares;
    p99Us = histogram.getValueAtPercentile(99) / 1_000.0 / shares;
    RegionStack stack = bench.stack();
    heapBytesPerBlock = stack.heapBytesPerBlock() / shares;
    fixedHeapKib = stack.fixedHeapKib() / shares;
    oneOffHeapKib = stack.oneOffHeapKib() / shares;
    long requests = stack.l2Requests() - requestsAtStart;
    l2HitRatio = requests == 0 ? 0 : (double) (stack.l2Hits() - hitsAtStart) / requests / shares;
  }
}
