package dev.blockcache.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ThreadCountersTest {
  @Test
  void countsEveryIncrementOfThreadsRacingOnTheSameCounters() throws InterruptedException {
    ThreadCounters counters = new ThreadCounters(3);
    int threads = 4;
    int perThread = 200_000;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread w = new Thread(() -> {
        await(start);
        for (int i = 0; i < perThread; i++) {
          counters.increment(i % 3 == 0 ? 0 : 2);
        }
      });
      w.start();
      workers.add(w);
    }
    start.countDown();
    long[] seenWhileRunning = counters.sums();
    for (Thread w : workers) {
      w.join();
    }
    int zeros = (perThread + 2) / 3;
    assertArrayEquals(new long[] {(long) threads * zeros, 0, (long) threads * (perThread - zeros)}, counters.sums());
    assertTrue(seenWhileRunning[0] <= (long) threads * zeros);
  }

  @Test
  void threadsWhoseIdsShareATableSlotCountApart() throws InterruptedException {
    ThreadCounters counters = new ThreadCounters(1);
    int perThread = 200_000;
    CountDownLatch start = new CountDownLatch(1);
    Runnable work = () -> {
      await(start);
      for (int i = 0; i < perThread; i++) {
        counters.increment(0);
      }
    };
    Thread first = new Thread(work);
    Thread second;
    do {
      second = new Thread(work);
    } while ((second.getId() - first.getId()) % ThreadCounters.ID_SLOTS != 0);
    first.start();
    second.start();
    start.countDown();
    first.join();
    second.join();
    assertArrayEquals(new long[] {2L * perThread}, counters.sums());
  }

  @Test
  void keepsTheCountsOfEndedThreadsAndDropsTheirCells() throws InterruptedException {
    ThreadCounters counters = new ThreadCounters(1);
    int ended = 100;
    for (int t = 0; t < ended; t++) {
      Thread w = new Thread(() -> {
        counters.increment(0);
        counters.increment(0);
      });
      w.start();
      w.join();
    }
    counters.increment(0);
    assertArrayEquals(new long[] {2L * ended + 1}, counters.sums());
    // The registry sweeps ended threads' cells once it doubles: never more than 4 cells here (1 live thread).
    assertTrue(counters.cells() <= 4, "cells " + counters.cells());
  }

  /** Virtual threads (Java 21+, started by reflection: the tests compile for Java 17) register no cell. */
  @Test
  void countsVirtualThreadsWithoutACellEach() throws Exception {
    Method ofVirtual;
    try {
      ofVirtual = Thread.class.getMethod("ofVirtual");
    } catch (NoSuchMethodException e) {
      Assumptions.abort("this runtime has no virtual threads");
      return;
    }
    Object builder = ofVirtual.invoke(null);
    Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
    ThreadCounters counters = new ThreadCounters(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 50; t++) {
      threads.add((Thread) start.invoke(builder, (Runnable) () -> counters.increment(0)));
    }
    for (Thread t : threads) {
      t.join();
    }
    assertArrayEquals(new long[] {50}, counters.sums());
    assertEquals(0, counters.cells());
  }

  @Test
  void refusesANonPositiveWidth() {
    assertThrows(IllegalArgumentException.class, () -> new ThreadCounters(0));
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
