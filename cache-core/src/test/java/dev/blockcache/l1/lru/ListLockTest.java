package dev.blockcache.l1.lru;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The list lock with real threads: a holder between chunks lets a spinning thread in, and exclusion holds. */
class ListLockTest {
  private static final long DEADLINE_NANOS = Duration.ofSeconds(10).toNanos();

  @Test
  void aThreadSpinningForTheLockGetsInBetweenChunksOfAHolder() throws Exception {
    ListLock lock = new ListLock();
    AtomicInteger entered = new AtomicInteger();
    CountDownLatch starting = new CountDownLatch(1);
    lock.lockSpinning();
    Thread inserter = new Thread(() -> {
      starting.countDown();
      lock.lockSpinning();
      try {
        entered.incrementAndGet();
      } finally {
        lock.unlock();
      }
    });
    inserter.start();
    try {
      starting.await();
      long start = System.nanoTime();
      while (entered.get() == 0 && System.nanoTime() - start < DEADLINE_NANOS) {
        lock.letSpinnersInLocked();
      }
      assertEquals(1, entered.get(), "the spinning thread never got the lock while the holder worked");
      assertTrue(lock.isHeldByCurrentThread(), "the holder did not take the lock back");
      assertEquals(1, lock.getHoldCount());
    } finally {
      lock.unlock();
    }
    inserter.join();
  }

  @Test
  void aHolderThatHoldsTheLockTwiceDoesNotOpenIt() throws Exception {
    ListLock lock = new ListLock();
    AtomicInteger entered = new AtomicInteger();
    lock.lockSpinning();
    lock.lockSpinning();
    Thread inserter = new Thread(() -> {
      lock.lockSpinning();
      entered.incrementAndGet();
      lock.unlock();
    });
    inserter.start();
    try {
      for (int i = 0; i < 1_000; i++) {
        lock.letSpinnersInLocked();
        assertEquals(0, entered.get(), "a thread got in while the lock was held twice");
      }
      assertEquals(2, lock.getHoldCount());
    } finally {
      lock.unlock();
      lock.unlock();
    }
    inserter.join(TimeUnit.SECONDS.toMillis(10));
    assertEquals(1, entered.get());
  }

  @Test
  void noUpdateUnderTheLockIsLostWhileAPassOpensItEveryStep() throws Exception {
    ListLock lock = new ListLock();
    long[] counter = new long[1]; // guarded by lock, written with plain stores
    int rounds = 20_000;
    int steps = 8;
    Thread pass = new Thread(() -> {
      for (int r = 0; r < rounds; r++) {
        lock.lockSpinning();
        try {
          for (int s = 0; s < steps; s++) {
            counter[0]++;
            lock.letSpinnersInLocked();
          }
        } finally {
          lock.unlock();
        }
      }
    });
    Thread inserts = new Thread(() -> {
      for (int r = 0; r < rounds * steps; r++) {
        lock.lockSpinning();
        try {
          counter[0]++;
        } finally {
          lock.unlock();
        }
      }
    });
    pass.start();
    inserts.start();
    pass.join();
    inserts.join();
    lock.lockSpinning();
    try {
      assertEquals(2L * rounds * steps, counter[0]);
    } finally {
      lock.unlock();
    }
  }
}
