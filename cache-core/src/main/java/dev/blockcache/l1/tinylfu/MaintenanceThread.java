package dev.blockcache.l1.tinylfu;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The executor a {@link TinyLfuBlockCache} gives Caffeine for its maintenance: until {@link #start} and after
 * {@link #stop} it runs each task on the calling thread; in between, on one thread of its own, so that inserts and
 * reads only hand their buffered work over.
 *
 * <p>The thread rests briefly after each run ({@link #REST_NANOS}), so that runs drain batches of writes. Submissions
 * coalesce without allocating: one task waits at a time, a submission of the task already waiting is
 * dropped (the waiting run covers it; Caffeine's maintenance drains whatever is buffered when it runs), and a different
 * task submitted while one waits runs on the calling thread. Every task runs through the {@code runner} the cache
 * gives (which counts eviction runs); a task that throws does not stop the thread.
 *
 * <p>Thread-safety: {@link #execute} may be called from any thread; {@link #start} and {@link #stop} by the owner.
 */
final class MaintenanceThread implements Executor, Runnable {
  /**
   * After a run the thread rests this long (nanoseconds) before it looks for the next task, without counting as idle:
   * the writes of that time are drained by one run, and a submitter wakes the thread once per run instead of once per
   * write (an unpark costs a system call). Not longer: Caffeine's write buffer holds 128 writes per processor, and a
   * writer that finds it full runs the maintenance itself, so a longer rest moves eviction work onto the inserting
   * threads (the rests compared are in docs/decisions.md#l1-tinylfublockcache, "A maintenance thread that rests 10
   * µs"). The overshoot bound does not depend on it.
   */
  static final long REST_NANOS = 10_000;

  private final Consumer<Runnable> runner;
  private final AtomicReference<Runnable> waiting = new AtomicReference<>();
  private volatile boolean running;
  /**
   * Set by the thread before it parks, cleared when it wakes: a submitter unparks it only when set (an unpark costs
   * a system call). The thread reads {@link #waiting} after setting it and a submitter reads it after filling
   * {@link #waiting}, so one of the two always sees the other (both are volatile).
   */
  private volatile boolean idle;
  private volatile Thread thread;

  /** An executor that runs tasks through {@code runner}, on the calling thread until started. */
  MaintenanceThread(Consumer<Runnable> runner) {
    this.runner = runner;
  }

  void start(ThreadFactory threadFactory) {
    if (thread != null) {
      throw new IllegalStateException("maintenance thread already started");
    }
    running = true;
    Thread t = threadFactory.newThread(this);
    thread = t;
    t.start();
  }

  boolean isStarted() {
    return thread != null;
  }

  @Override
  public void execute(Runnable task) {
    Thread t = thread;
    if (t == null || !running) {
      runner.accept(task);
      return;
    }
    Runnable current = waiting.get();
    if (current == task) {
      return;
    }
    if (current == null && waiting.compareAndSet(null, task)) {
      if (idle) {
        LockSupport.unpark(t);
      }
      return;
    }
    runner.accept(task);
  }

  @Override
  public void run() {
    while (running) {
      Runnable task = waiting.getAndSet(null);
      if (task == null) {
        idle = true;
        if (waiting.get() == null && running) {
          LockSupport.park(this);
        }
        idle = false;
        continue;
      }
      try {
        runner.accept(task);
      } catch (RuntimeException e) {
        // Caffeine logs its own maintenance failures; the thread stays up for the next run.
      }
      LockSupport.parkNanos(this, REST_NANOS);
    }
  }

  /** Stops the thread, waits for it to end, then runs a task still waiting on the calling thread. */
  void stop() {
    Thread t = thread;
    if (t == null) {
      return;
    }
    running = false;
    LockSupport.unpark(t);
    boolean interrupted = false;
    while (t.isAlive()) {
      try {
        t.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    Runnable task = waiting.getAndSet(null);
    if (task != null) {
      runner.accept(task);
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
