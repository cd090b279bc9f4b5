package dev.blockcache.l1.lru;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The background thread that runs an {@link LruBlockCache}'s eviction passes when inserts push the cache over its
 * acceptable size. Requests coalesce: any number of {@link #request()} calls while a pass is pending cause one pass.
 *
 * <p>After a pass the thread stays awake for a while ({@link #LINGER_RESTS} timed rests of {@link #REST_NANOS}),
 * looking for the next request at the end of each rest, and parks only when none came: under sustained inserts the
 * next pass is requested within that time, and a request to a thread that is not parked costs the inserting thread
 * no system call (an unpark does). A request waits at most one rest for its pass, during which the hard limit still
 * bounds the size.
 *
 * <p>Thread-safety: {@link #request()} may be called from any thread; {@link #start} and {@link #stop} by the owner.
 */
final class LruEvictor implements Runnable {
  /** One rest between looks for a request while the thread lingers after a pass, in nanoseconds. */
  static final long REST_NANOS = 100_000;
  /** Rests the thread lingers after a pass before it parks until woken. */
  static final int LINGER_RESTS = 10;

  private final Runnable pass;
  private final AtomicBoolean pending = new AtomicBoolean();
  private volatile boolean running;
  /**
   * Set by the thread before it parks until woken, cleared when it wakes: a requester unparks it only when set. The
   * thread reads {@link #pending} after setting it and a requester reads it after setting {@link #pending}, so one of
   * the two always sees the other (both are volatile).
   */
  private volatile boolean idle;
  private volatile Thread thread;

  LruEvictor(Runnable pass) {
    this.pass = pass;
  }

  void start(ThreadFactory threadFactory) {
    if (thread != null) {
      throw new IllegalStateException("evictor already started");
    }
    running = true;
    Thread t = threadFactory.newThread(this);
    thread = t;
    t.start();
  }

  boolean isStarted() {
    return thread != null;
  }

  /** Asks for one eviction pass soon: within one rest if the thread lingers, at once if it is parked. */
  void request() {
    Thread t = thread;
    if (t != null && pending.compareAndSet(false, true) && idle) {
      LockSupport.unpark(t);
    }
  }

  /** Asks for one eviction pass now, cutting a rest short: for a cache that refuses blocks until it runs. */
  void requestNow() {
    Thread t = thread;
    if (t != null) {
      pending.set(true);
      LockSupport.unpark(t);
    }
  }

  @Override
  public void run() {
    int rests = 0;
    while (running) {
      if (pending.compareAndSet(true, false)) {
        pass.run();
        rests = 0;
      } else if (rests < LINGER_RESTS) {
        rests++;
        LockSupport.parkNanos(this, REST_NANOS);
      } else {
        idle = true;
        if (!pending.get() && running) {
          LockSupport.park(this);
        }
        idle = false;
      }
    }
  }

  /** Stops the thread and waits for it to end. */
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
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
