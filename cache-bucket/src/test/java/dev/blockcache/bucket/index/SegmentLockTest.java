package dev.blockcache.bucket.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Pins that {@link SegmentLock}'s {@code Lock} face is its write lock, so stamps and lock() exclude each other. */
class SegmentLockTest {
  @Test
  void lockIsTheWriteLock() {
    SegmentLock lock = new SegmentLock();
    lock.lock();
    try {
      assertTrue(lock.isWriteLocked());
      assertEquals(0L, lock.tryOptimisticRead(), "an optimistic read must fail while the write lock is held");
      assertEquals(0L, lock.tryReadLock());
      assertFalse(lock.tryLock());
    } finally {
      lock.unlock();
    }
    assertFalse(lock.isWriteLocked());
    long stamp = lock.tryOptimisticRead();
    assertTrue(stamp != 0L && lock.validate(stamp));
  }

  @Test
  void aStampedReadLockKeepsLockOut() {
    SegmentLock lock = new SegmentLock();
    long stamp = lock.readLock();
    try {
      assertFalse(lock.tryLock());
    } finally {
      lock.unlockRead(stamp);
    }
    assertTrue(lock.tryLock());
    lock.unlock();
  }

  @Test
  void unlockWithoutTheWriteLockThrows() {
    assertThrows(IllegalMonitorStateException.class, () -> new SegmentLock().unlock());
  }
}
