package dev.blockcache.jmh.workload;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The CPU time a benchmark thread spends per operation, as two JMH {@link AuxCounters} summed over an iteration:
 * {@link #cpuNanos} of thread CPU time over {@link #cpuOps} operations; their quotient is CPU nanoseconds per op.
 *
 * <p>Why: throughput is wall-clock, and on a machine whose cores other processes share, a thread descheduled for
 * half the iteration halves its score whatever the code does. Thread CPU time counts only the time the thread ran,
 * so the ratio of two competitors' CPU time per op stays meaningful under load (it still includes what sharing the
 * caches with other processes costs). It counts the benchmark thread only: a competitor that hands work to other
 * threads (HBase's TinyLFU runs Caffeine's maintenance on the common pool) looks cheaper by that work.
 *
 * <p>The clock is read once per {@value #SAMPLE} operations (a thread CPU clock read is a system call), and both
 * counters advance together at those reads, so the quotient is exact over the sampled operations.
 *
 * <p>Thread-safety: a JMH {@link Scope#Thread} state, used by its own thread only.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class ThreadCpu {
  /** Operations between two reads of the thread CPU clock: a read costs ~1 µs, so ~1 ns per op. */
  private static final int SAMPLE = 1024;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** Thread CPU nanoseconds over the sampled operations of this iteration. */
  public long cpuNanos;
  /** Operations whose CPU time {@link #cpuNanos} holds. */
  public long cpuOps;

  private int pending;
  private long last;

  @Setup(Level.Iteration)
  public void reset() {
    cpuNanos = 0;
    cpuOps = 0;
    pending = 0;
    last = THREADS.getCurrentThreadCpuTime();
  }

  /** Counts one operation; every {@value #SAMPLE}th reads the clock. */
  public void tick() {
    if (++pending == SAMPLE) {
      long now = THREADS.getCurrentThreadCpuTime();
      cpuNanos += now - last;
      cpuOps += SAMPLE;
      last = now;
      pending = 0;
    }
  }
}
