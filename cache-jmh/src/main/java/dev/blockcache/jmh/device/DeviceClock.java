package dev.blockcache.jmh.device;

import java.util.concurrent.locks.LockSupport;

/**
 * Time for a device model: reads the clock and waits until a deadline. Tests inject a clock whose waits advance
 * virtual time, so a model is checked without sleeping.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use.
 */
public interface DeviceClock {
  /** The real clock: see {@link #SPIN_THRESHOLD_NANOS} for how it waits. */
  DeviceClock SYSTEM = new DeviceClock() {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    @SuppressWarnings("ThreadPriorityCheck") // the last microseconds, too short to park: yield rather than burn a core
    public void awaitUntil(long deadlineNanos) {
      long left;
      while ((left = deadlineNanos - System.nanoTime()) > SPIN_THRESHOLD_NANOS) {
        LockSupport.parkNanos(left - SPIN_THRESHOLD_NANOS);
      }
      while (deadlineNanos - System.nanoTime() > 0) {
        Thread.yield();
      }
    }
  };

  /**
   * Waits shorter than this are spun with {@link Thread#yield()}, longer ones parked until this much is left:
   * {@code parkNanos} oversleeps by the OS timer's slack, which a modelled SSD read is not much longer than, and pure
   * {@code onSpinWait} starves the threads that share the core.
   */
  long SPIN_THRESHOLD_NANOS = 300_000;

  long nanoTime();

  /** Returns once {@link #nanoTime()} has reached {@code deadlineNanos}. */
  void awaitUntil(long deadlineNanos);
}
