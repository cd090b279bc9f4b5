package dev.blockcache.l1.lru;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock over an {@link LruBlockCache}'s table, lists and file chains. An insert holds it for one probe and a few
 * links; an eviction pass holds it for every block it frees. A thread that blocks in {@link #lock()} parks, and
 * waking it costs the releasing thread a system call and the parked thread a scheduler wake-up, both far longer than
 * a few evictions take. So an insert or a pass takes the lock with {@link #lockSpinning()}, which spins a bounded
 * time before it parks, and a pass opens the lock between chunks of its work ({@link #letSpinnersInLocked()}) when a
 * thread is spinning for it: an insert then waits for a chunk, not for the pass.
 *
 * <p>Thread-safety: a lock; {@link #letSpinnersInLocked()} only by the thread that holds it.
 */
final class ListLock extends ReentrantLock {
  /** Evictions a pass makes between two openings of the lock for a spinning thread. */
  static final int CHUNK = 8;

  /** How many times a thread spins for the lock before it parks: a few microseconds, several chunks of a pass. */
  private static final int SPINS = 1 << 10;

  private final AtomicInteger spinning = new AtomicInteger();

  /** Takes the lock, spinning for it a bounded time before parking. */
  void lockSpinning() {
    if (tryLock()) {
      return;
    }
    spinning.incrementAndGet();
    try {
      for (int i = 0; i < SPINS; i++) {
        Thread.onSpinWait();
        if (!isLocked() && tryLock()) {
          return;
        }
      }
      lock();
    } finally {
      spinning.decrementAndGet();
    }
  }

  /**
   * Lets a thread spinning in {@link #lockSpinning()} take the lock, then takes it back (spinning). Does nothing when
   * none spins, or when the caller holds the lock more than once (it could not open it). The caller's state guarded
   * by the lock must be consistent when it calls this.
   */
  @GuardedBy("this")
  void letSpinnersInLocked() {
    if (spinning.get() == 0 || getHoldCount() != 1) {
      return;
    }
    unlock();
    for (int i = 0; i < SPINS && spinning.get() > 0 && !isLocked(); i++) {
      Thread.onSpinWait();
    }
    lockSpinning();
  }
}
