package dev.blockcache.jmh.experiments;

import dev.blockcache.api.CacheStats;
import dev.blockcache.combined.CombinedBlockCache;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Experiment 4's per-thread figures, published to JMH's JSON as secondary metrics (aux counters): the latency of each
 * YCSB operation in an HdrHistogram (mean, p95, p99 in µs) and the L1 and L2 hit ratios of the combined cache over
 * the iteration.
 *
 * <p>JMH adds up an aux counter over the benchmark threads and then over the iterations, so each thread publishes its
 * own figure divided by threads × iterations: the JSON's score is the mean over threads and iterations of each
 * thread's percentile (not the percentile of the merged histogram; with two symmetric threads the two agree closely)
 * and of the cache's hit ratio over each iteration.
 * A ratio with no requests in the iteration is published as 0 (update-only has no reads).
 *
 * <p>Thread-safety: one instance per benchmark thread ({@link Scope#Thread}); the cache is only read.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class YcsbLatency {
  /** Longest latency the histogram records: 60 s in ns; 3 significant digits. */
  private static final long MAX_NANOS = 60_000_000_000L;

  private final Histogram histogram = new Histogram(MAX_NANOS, 3);
  private CacheStats l1Start;
  private CacheStats l2Start;
  /** Threads × iterations of the current phase: what JMH's sums are divided by. */
  private int shares;

  /** Mean operation latency in µs (divided by threads × iterations, see the class notes). */
  public double meanUs;
  /** 95th percentile latency in µs (divided by threads × iterations). */
  public double p95Us;
  /** 99th percentile latency in µs (divided by threads × iterations). */
  public double p99Us;
  /** L1 (index blocks) hit ratio over the iteration (divided by threads × iterations). */
  public double l1HitRatio;
  /** L2 (data blocks) hit ratio over the iteration (divided by threads × iterations). */
  public double l2HitRatio;

  /** Records one operation's latency. */
  void record(long nanos) {
    histogram.recordValue(Math.min(nanos, MAX_NANOS));
  }

  @Setup(Level.Iteration)
  public void start(YcsbExperiment bench, ThreadParams thread, IterationParams iteration) {
    histogram.reset();
    shares = thread.getThreadCount() * iteration.getCount();
    CombinedBlockCache cache = bench.cache();
    l1Start = cache.l1Stats();
    l2Start = cache.l2Stats();
  }

  @TearDown(Level.Iteration)
  public void finish(YcsbExperiment bench) {
    meanUs = histogram.getTotalCount() == 0 ? 0 : histogram.getMean() / 1_000 / shares;
    p95Us = histogram.getValueAtPercentile(95) / 1_000.0 / shares;
    p99Us = histogram.getValueAtPercentile(99) / 1_000.0 / shares;
    CombinedBlockCache cache = bench.cache();
    l1HitRatio = hitRatio(l1Start, cache.l1Stats()) / shares;
    l2HitRatio = hitRatio(l2Start, cache.l2Stats()) / shares;
  }

  private static double hitRatio(CacheStats before, CacheStats after) {
    long hits = after.hitCount() - before.hitCount();
    long requests = after.requestCount() - before.requestCount();
    return requests == 0 ? 0 : (double) hits / requests;
  }
}
