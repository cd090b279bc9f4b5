package dev.blockcache.bucket.index;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.StampedLock;

/**
 * A {@link Segment}'s lock: a {@link StampedLock} (an optimistic read for lookups, a stamped read lock for visits)
 * that is also a {@link Lock} whose {@link #lock()} and {@link #unlock()} are its write lock, as the view
 * {@link StampedLock#asWriteLock()} returns would be.
 *
 * <p>Why a {@link Lock}: Error Prone's {@code GuardedBy} analysis follows a {@link Lock} released by
 * {@code unlock()} in a {@code finally}, not a stamp. Taking the write lock through this interface lets it check
 * every access to a field {@code @GuardedBy("lock")} and every call of a {@code Locked} method at compile time. The
 * cost is the stamped one: {@link #lock()} is {@link #writeLock()}, and {@link #unlock()} is
 * {@link #tryUnlockWrite()}, one read of the lock state and the same release as {@link #unlockWrite(long)}; the calls
 * go to this final class.
 *
 * <p>Thread-safety: a lock.
 */
final class SegmentLock extends StampedLock implements Lock {
  private static final long serialVersionUID = 1L;

  /** Takes the write lock, as {@link #writeLock()} without keeping the stamp. */
  @Override
  public void lock() {
    writeLock();
  }

  @Override
  public void lockInterruptibly() throws InterruptedException {
    writeLockInterruptibly();
  }

  @Override
  public boolean tryLock() {
    return tryWriteLock() != 0L;
  }

  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    return tryWriteLock(time, unit) != 0L;
  }

  /**
   * Releases the write lock.
   *
   * @throws IllegalMonitorStateException if the write lock is not held
   */
  @Override
  public void unlock() {
    if (!tryUnlockWrite()) {
      throw new IllegalMonitorStateException();
    }
  }

  /** Unsupported, as for {@link StampedLock#asWriteLock()}: nothing waits on a segment. */
  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException();
  }
}
