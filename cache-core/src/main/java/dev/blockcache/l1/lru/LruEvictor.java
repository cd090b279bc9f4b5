package dev.blockcache.l1.lru;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The background thread that runs an {@link LruBlockCache}'s eviction passes when inserts push the cache over its
 * acceptable size. Requests coalesce: any number of {@link #request()} calls while a pass is pending cause one pass.
 *
 * <p>Thread-safety: {@link #request()} may be called from any thread; {@link #start} and {@link #stop} by the owner.
 */
final class LruEvictor implements Runnable {
  private final Runnable pass;
  private final AtomicBoolean pending = new AtomicBoolean();
  private volatile boolean running;
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

  /** Asks for one eviction pass soon. */
  void request() {
    Thread t = thread;
    if (t != null && pending.compareAndSet(false, true)) {
      LockSupport.unpark(t);
    }
  }

  @Override
  public void run() {
    while (running) {
      if (pending.compareAndSet(true, false)) {
        pass.run();
      } else {
        LockSupport.park(this);
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
