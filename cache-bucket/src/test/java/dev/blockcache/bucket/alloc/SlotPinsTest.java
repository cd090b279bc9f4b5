package dev.blockcache.bucket.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class SlotPinsTest {
  private final List<long[]> freed = new ArrayList<>();
  private final SlotPins pins = new SlotPins((offset, length) -> freed.add(new long[] {offset, length}));

  @Test
  void pinAndUnpinCount() {
    pins.pin(256);
    pins.pin(256);
    pins.pin(512);
    assertEquals(2, pins.pinCount(256));
    assertEquals(1, pins.pinCount(512));
    assertEquals(0, pins.pinCount(768));
    assertEquals(2, pins.pinnedSlots());
    pins.unpin(256);
    pins.unpin(512);
    assertEquals(1, pins.pinCount(256));
    assertEquals(1, pins.pinnedSlots());
    pins.unpin(256);
    assertEquals(0, pins.pinnedSlots());
    assertTrue(freed.isEmpty(), "no free was asked for");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> pins.unpin(256));
    assertTrue(e.getMessage().contains("256"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> pins.pin(-1));
  }

  @Test
  void anUnpinnedSlotIsFreedAtOnce() {
    assertTrue(pins.freeWhenUnpinned(1024, 700));
    assertEquals(1, freed.size());
    assertEquals(1024, freed.get(0)[0]);
    assertEquals(700, freed.get(0)[1]);
    assertEquals(0, pins.deferredFrees());
  }

  @Test
  void aPinnedSlotIsFreedExactlyOnceByTheLastUnpin() {
    pins.pin(2048);
    pins.pin(2048);
    assertFalse(pins.freeWhenUnpinned(2048, 900));
    assertEquals(1, pins.deferredFrees());
    IllegalStateException twice = assertThrows(IllegalStateException.class, () -> pins.freeWhenUnpinned(2048, 900));
    assertTrue(twice.getMessage().contains("2048"), twice.getMessage());
    assertFalse(pins.pinUnlessFreeing(2048), "a slot being freed takes no new reader");
    pins.unpin(2048);
    assertTrue(freed.isEmpty());
    pins.unpin(2048);
    assertEquals(1, freed.size());
    assertEquals(900, freed.get(0)[1]);
    assertEquals(0, pins.deferredFrees());
    assertEquals(0, pins.pinnedSlots());
    assertTrue(pins.pinUnlessFreeing(2048), "the entry is gone; a later allocation at this offset can be pinned");
    pins.unpin(2048);
    assertEquals(1, freed.size());
  }

  @Test
  void aSecondFreeAfterAnImmediateFreeIsCaughtByTheAllocator() {
    BucketAllocator allocator = new BucketAllocator(1 << 20, new int[] {1024, 4096});
    SlotPins p = new SlotPins(allocator::free);
    long o = allocator.allocate(1000);
    allocator.allocate(1000); // keeps the bucket assigned
    assertTrue(p.freeWhenUnpinned(o, 1000));
    assertThrows(IllegalStateException.class, () -> p.freeWhenUnpinned(o, 1000));
  }

  @Test
  void tablesGrowAndShrinkConsistentlyUnderRandomOperations() {
    // One stripe, so every offset shares a table: growth, probing and backward-shift deletion are all exercised.
    Map<Long, Integer> model = new HashMap<>();
    Map<Long, Integer> deferredModel = new HashMap<>();
    List<Long> freedOffsets = new ArrayList<>();
    SlotPins p = new SlotPins((offset, length) -> freedOffsets.add(offset), 1);
    SplittableRandom r = new SplittableRandom(3);
    for (int step = 0; step < 200_000; step++) {
      long offset = 256L * r.nextInt(step < 100_000 ? 5_000 : 300);
      int op = r.nextInt(10);
      if (op < 5) {
        p.pin(offset);
        model.merge(offset, 1, Integer::sum);
      } else if (op < 9) {
        if (model.containsKey(offset)) {
          p.unpin(offset);
          if (model.merge(offset, -1, Integer::sum) == 0) {
            model.remove(offset);
            if (deferredModel.remove(offset) != null) {
              assertEquals(offset, freedOffsets.remove(freedOffsets.size() - 1));
            }
          }
        }
      } else if (model.containsKey(offset) && !deferredModel.containsKey(offset)) {
        assertFalse(p.freeWhenUnpinned(offset, 1));
        deferredModel.put(offset, 1);
      }
      assertTrue(freedOffsets.isEmpty());
      if (step % 10_000 == 0) {
        for (Map.Entry<Long, Integer> e : model.entrySet()) {
          assertEquals(e.getValue(), p.pinCount(e.getKey()), "pins of " + e.getKey());
        }
      }
    }
    assertEquals(model.size(), p.pinnedSlots());
    assertEquals(deferredModel.size(), p.deferredFrees());
    for (Map.Entry<Long, Integer> e : model.entrySet()) {
      assertEquals(e.getValue(), p.pinCount(e.getKey()), "pins of " + e.getKey());
    }
  }

  /**
   * Four readers pin and unpin three offsets per round while an evictor frees one of them mid-round, following the
   * cache's protocol: the evictor unpublishes the slot, then asks for the free; a reader pins, re-checks that the slot
   * is still published, reads, unpins. The freer must run exactly once per round and never while a reader reads.
   * In even rounds every reader also holds a pin across the free request, so the deferred path runs for certain;
   * in odd rounds the request usually finds no pin.
   */
  @Test
  void concurrentReadersNeverSeeTheirSlotFreedAndTheFreeHappensOnce() throws Exception {
    int readers = 4;
    int rounds = 100;
    int iterations = 2_000;
    AtomicIntegerArray frees = new AtomicIntegerArray(rounds);
    AtomicIntegerArray unpublished = new AtomicIntegerArray(rounds);
    AtomicInteger readersInside = new AtomicInteger();
    AtomicInteger deferred = new AtomicInteger();
    ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    SlotPins p = new SlotPins((offset, length) -> {
      int round = (int) (offset / 1024);
      if (offset % 1024 != 0 || length != round) {
        violations.add("freed " + offset + " length " + length);
      }
      if (readersInside.get() != 0) {
        violations.add("round " + round + " freed while a reader reads its slot");
      }
      frees.incrementAndGet(round);
    });
    CountDownLatch[] halfway = new CountDownLatch[rounds];
    CountDownLatch[] requested = new CountDownLatch[rounds];
    for (int i = 0; i < rounds; i++) {
      halfway[i] = new CountDownLatch(readers);
      requested[i] = new CountDownLatch(1);
    }
    CyclicBarrier barrier = new CyclicBarrier(readers + 1);
    List<Thread> threads = new ArrayList<>();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    for (int t = 0; t < readers; t++) {
      threads.add(new Thread(() -> {
        try {
          for (int round = 0; round < rounds; round++) {
            barrier.await(10, TimeUnit.SECONDS);
            for (int i = 0; i < iterations; i++) {
              if (i == iterations / 2) {
                if (round % 2 == 0) {
                  p.pin(round * 1024L); // still published: the evictor waits for this latch
                }
                halfway[round].countDown();
              }
              if (i == iterations * 3 / 4 && round % 2 == 0) {
                assertTrue(requested[round].await(10, TimeUnit.SECONDS));
                p.unpin(round * 1024L); // one of these, or a concurrent read, is the last unpin
              }
              long offset = round * 1024L + 256L * (i % 3);
              if (!p.pinUnlessFreeing(offset)) {
                continue;
              }
              if (offset % 1024 == 0 && unpublished.get(round) == 1) {
                p.unpin(offset); // stale: the index no longer maps to this slot
                continue;
              }
              if (offset % 1024 == 0) { // a read of the slot under eviction
                readersInside.incrementAndGet();
                if (frees.get(round) != 0) {
                  violations.add("round " + round + " read after free");
                }
                readersInside.decrementAndGet();
              }
              p.unpin(offset);
            }
            barrier.await(10, TimeUnit.SECONDS);
          }
        } catch (Throwable e) {
          errors.add(e);
        }
      }, "reader-" + t));
    }
    Thread evictor = new Thread(() -> {
      try {
        for (int round = 0; round < rounds; round++) {
          barrier.await(10, TimeUnit.SECONDS);
          assertTrue(halfway[round].await(10, TimeUnit.SECONDS));
          unpublished.set(round, 1);
          boolean now = p.freeWhenUnpinned(round * 1024L, round);
          if (!now) {
            deferred.incrementAndGet();
          }
          if (round % 2 == 0) {
            assertFalse(now, "four readers hold a pin in even rounds");
            requested[round].countDown();
          }
          barrier.await(10, TimeUnit.SECONDS);
        }
      } catch (Throwable e) {
        errors.add(e);
      }
    }, "evictor");
    threads.add(evictor);
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(20));
      assertFalse(t.isAlive(), t.getName() + " stuck");
    }
    assertTrue(errors.isEmpty(), errors::toString);
    assertTrue(violations.isEmpty(), violations::toString);
    for (int round = 0; round < rounds; round++) {
      assertEquals(1, frees.get(round), "frees in round " + round);
    }
    assertEquals(0, p.pinnedSlots());
    assertEquals(0, p.deferredFrees());
    System.out.println("SlotPins race: " + deferred.get() + " of " + rounds + " frees were deferred to an unpin");
  }

  /** The get path budget is 16 B per get: pin and unpin on warmed tables must allocate nothing. */
  @Test
  void pinAndUnpinAllocateNothingOnceTablesHaveGrown() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    long self = Thread.currentThread().getId();
    SlotPins p = new SlotPins((offset, length) -> { });
    for (int round = 0; round < 3; round++) { // round 0 grows the tables and warms the code
      long before = threads.getThreadAllocatedBytes(self);
      for (int i = 0; i < 100_000; i++) {
        long offset = 256L * (i % 512);
        p.pin(offset);
        p.pin(offset + 256L * 512);
        p.unpin(offset);
        p.unpin(offset + 256L * 512);
      }
      long allocated = threads.getThreadAllocatedBytes(self) - before;
      if (round > 0) {
        assertTrue(allocated < 1024, "allocated " + allocated + " bytes for 200k pin/unpin pairs");
      }
    }
  }

  /** The deferred path, forced: the free runs on the reader's thread, inside its last unpin. */
  @Test
  void theLastUnpinOnAnotherThreadPerformsTheDeferredFree() throws Exception {
    ConcurrentLinkedQueue<String> freers = new ConcurrentLinkedQueue<>();
    SlotPins p = new SlotPins((offset, length) -> freers.add(Thread.currentThread().getName()));
    CountDownLatch pinned = new CountDownLatch(1);
    CountDownLatch requested = new CountDownLatch(1);
    Thread reader = new Thread(() -> {
      p.pin(4096);
      pinned.countDown();
      try {
        requested.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      p.unpin(4096);
    }, "the-reader");
    reader.start();
    pinned.await();
    assertFalse(p.freeWhenUnpinned(4096, 10));
    assertTrue(freers.isEmpty());
    requested.countDown();
    reader.join();
    assertEquals(List.of("the-reader"), new ArrayList<>(freers));
  }
}
