package dev.blockcache.bucket.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class BlockIndexConcurrencyTest {
  private static final int THREADS = 4;
  private static final int KEYS_PER_THREAD = 3000;
  private static final int OPS = 150_000;
  private static final int FILES = 5;

  /** Key {@code id}: shared files, so all threads meet in the same segments; thread = id % THREADS. */
  private static BlockKey key(int id) {
    return BlockKey.of("file-" + (id % FILES), id * 4096L);
  }

  private static long entry(int id, int length, CachePriority p) {
    return IndexEntry.pack((long) id * IndexEntry.OFFSET_UNIT, length, p, BlockCategory.DATA);
  }

  private static void runAll(List<Runnable> bodies) throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (Runnable body : bodies) {
      Thread t = new Thread(() -> {
        try {
          start.await();
          body.run();
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      });
      t.start();
      threads.add(t);
    }
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
  }

  /**
   * Each thread owns the keys {@code id % THREADS == t} and checks every result against its own model; it also
   * peeks at other threads' keys, which must be absent or carry that key's id (no torn or misplaced reads).
   */
  @Test
  void fourThreadsPutGetRemoveAgainstTheirModels() throws InterruptedException {
    BlockIndex index = new BlockIndex(1000); // few segments: many collisions between threads
    long[][] models = new long[THREADS][KEYS_PER_THREAD];
    List<Runnable> bodies = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      final int me = t;
      bodies.add(() -> {
        long[] model = models[me];
        java.util.Arrays.fill(model, IndexEntry.ABSENT);
        SplittableRandom rnd = new SplittableRandom(42 + me);
        for (int op = 0; op < OPS; op++) {
          int k = rnd.nextInt(KEYS_PER_THREAD);
          int id = k * THREADS + me;
          BlockKey key = key(id);
          switch (rnd.nextInt(5)) {
            case 0, 1 -> {
              long e = entry(id, 1 + rnd.nextInt(1000), CachePriority.ofOrdinal(rnd.nextInt(3)));
              long got = index.putIfAbsent(key, e);
              assertEquals(model[k], got);
              if (got == IndexEntry.ABSENT) {
                model[k] = e;
              }
            }
            case 2 -> {
              long got = index.get(key);
              long expected = model[k];
              if (expected != IndexEntry.ABSENT && IndexEntry.priority(expected) == CachePriority.SINGLE) {
                expected = IndexEntry.withPriority(expected, CachePriority.MULTI);
              }
              assertEquals(expected, got);
              model[k] = expected;
            }
            case 3 -> {
              boolean removed = index.remove(key, model[k]);
              assertEquals(model[k] != IndexEntry.ABSENT, removed);
              model[k] = IndexEntry.ABSENT;
            }
            default -> {
              int otherId = rnd.nextInt(KEYS_PER_THREAD * THREADS);
              long got = index.peek(key(otherId));
              assertTrue(got == IndexEntry.ABSENT || IndexEntry.offset(got) == (long) otherId * 256,
                  () -> "foreign key " + otherId + " read " + IndexEntry.toString(got));
            }
          }
        }
      });
    }
    runAll(bodies);

    long size = 0;
    long[] bytes = new long[CachePriority.COUNT];
    for (int t = 0; t < THREADS; t++) {
      for (int k = 0; k < KEYS_PER_THREAD; k++) {
        long e = models[t][k];
        assertEquals(e, index.peek(key(k * THREADS + t)));
        if (e != IndexEntry.ABSENT) {
          size++;
          bytes[IndexEntry.priority(e).ordinal()] += IndexEntry.length(e);
        }
      }
    }
    assertEquals(size, index.size());
    for (CachePriority p : CachePriority.values()) {
      assertEquals(bytes[p.ordinal()], index.bytes(p), p.name());
    }
  }

  /** Three writers and one evictor (CLOCK and by file): every entry is accounted for exactly once. */
  @Test
  void evictionAndRemoveFileRacingWritersLoseNothing() throws InterruptedException {
    BlockIndex index = new BlockIndex(2000);
    AtomicLong inserted = new AtomicLong();
    AtomicLong removedByWriters = new AtomicLong();
    AtomicLong removedBySinks = new AtomicLong();
    AtomicLong sinkBytes = new AtomicLong();
    EntrySink sink = e -> {
      removedBySinks.incrementAndGet();
      sinkBytes.addAndGet(IndexEntry.length(e));
    };
    CountDownLatch writersDone = new CountDownLatch(3);
    List<Runnable> bodies = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      final int me = t;
      bodies.add(() -> {
        SplittableRandom rnd = new SplittableRandom(7 + me);
        try {
          for (int op = 0; op < 100_000; op++) {
            int id = rnd.nextInt(4000) * THREADS + me;
            BlockKey key = key(id);
            if (rnd.nextInt(3) != 0) {
              if (index.putIfAbsent(key, entry(id, 100, CachePriority.ofOrdinal(rnd.nextInt(2)))) == IndexEntry.ABSENT) {
                inserted.incrementAndGet();
              }
            } else {
              long e = index.get(key);
              if (e != IndexEntry.ABSENT && rnd.nextBoolean() && index.remove(key, e)) {
                removedByWriters.incrementAndGet();
              }
            }
          }
        } finally {
          writersDone.countDown();
        }
      });
    }
    bodies.add(() -> {
      SplittableRandom rnd = new SplittableRandom(99);
      while (writersDone.getCount() > 0) {
        if (rnd.nextInt(50) == 0) {
          index.removeFile("file-" + rnd.nextInt(FILES), sink);
        } else {
          index.evict(CachePriority.ofOrdinal(rnd.nextInt(2)), 5_000, sink);
        }
      }
    });
    runAll(bodies);

    long[] remaining = new long[2];
    index.forEach((segment, fp, e) -> {
      remaining[0]++;
      remaining[1] += IndexEntry.length(e);
    });
    assertTrue(removedBySinks.get() > 0, "the evictor did evict");
    assertEquals(inserted.get() - removedByWriters.get() - removedBySinks.get(), remaining[0]);
    assertEquals(remaining[0], index.size());
    long total = 0;
    for (CachePriority p : CachePriority.values()) {
      total += index.bytes(p);
    }
    assertEquals(remaining[1], total);
    assertEquals(100 * remaining[0], total);
  }
}
