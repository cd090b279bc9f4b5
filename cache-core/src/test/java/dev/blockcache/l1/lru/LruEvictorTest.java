package dev.blockcache.l1.lru;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.LruConfig;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The LRU's eviction thread with real threads: passes requested while it lingers after a pass and after it parked
 * both run, and a started cache's passes that open the list lock to concurrent inserts keep the accounts exact.
 */
class LruEvictorTest {
  private static final int BLOCK = 4096;
  private static final long ENTRY = BLOCK + HeapBlock.LRU_ENTRY_OVERHEAD;
  private static final Duration DEADLINE = Duration.ofSeconds(10);

  private static void put(LruBlockCache cache, BlockKey key) {
    Blocks.cachePayload(cache, key, BLOCK);
  }

  /** An evictor whose passes release one permit of {@code passes} each, started on a thread kept in {@code thread}. */
  private static LruEvictor started(Semaphore passes, AtomicReference<Thread> thread) {
    LruEvictor evictor = new LruEvictor(passes::release);
    evictor.start(r -> {
      Thread t = new Thread(r, "lru-evictor-test");
      thread.set(t);
      return t;
    });
    return evictor;
  }

  /** Requests a pass and waits for it to run. */
  private static void requestAndAwaitPass(LruEvictor evictor, Semaphore passes, String when) throws Exception {
    evictor.request();
    assertTrue(passes.tryAcquire(DEADLINE.toMillis(), TimeUnit.MILLISECONDS), "no pass ran for the request " + when);
  }

  /** Waits until {@code thread} is parked with no time limit: the evictor is idle, done lingering. */
  private static void awaitParkedUntilWoken(Thread thread) {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (thread.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertEquals(Thread.State.WAITING, thread.getState(), "the evictor never parked until woken");
  }

  @Test
  void aPassRequestedWhileTheEvictorLingersRuns() throws Exception {
    Semaphore passes = new Semaphore(0);
    LruEvictor evictor = started(passes, new AtomicReference<>());
    try {
      requestAndAwaitPass(evictor, passes, "before the first pass");
      requestAndAwaitPass(evictor, passes, "right after a pass");
    } finally {
      evictor.stop();
    }
  }

  @Test
  void aPassRequestedAfterTheEvictorParkedRuns() throws Exception {
    Semaphore passes = new Semaphore(0);
    AtomicReference<Thread> thread = new AtomicReference<>();
    LruEvictor evictor = started(passes, thread);
    try {
      requestAndAwaitPass(evictor, passes, "before the first pass");
      awaitParkedUntilWoken(thread.get());
      requestAndAwaitPass(evictor, passes, "after the evictor parked");
    } finally {
      evictor.stop();
    }
  }

  @Test
  void passesThatOpenTheLockToInsertsKeepTheAccountsExact() throws Exception {
    int perThread = 20_000;
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(300 * ENTRY).build())) {
      cache.start();
      List<Thread> inserters = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        String file = "inserter-" + t;
        inserters.add(new Thread(() -> {
          for (int i = 0; i < perThread; i++) {
            put(cache, BlockKey.of(file, (long) i * BLOCK));
          }
        }));
      }
      inserters.forEach(Thread::start);
      for (Thread t : inserters) {
        t.join();
      }
      assertTrue(cache.stats().evictionRunCount() > 10, "too few passes to test: " + cache.stats());
      cache.runEviction();
      long readable = 0;
      for (int t = 0; t < 2; t++) {
        for (int i = 0; i < perThread; i++) {
          BlockKey key = BlockKey.of("inserter-" + t, (long) i * BLOCK);
          ByteBuf b = cache.getBlock(key, ReadOptions.of(BlockCategory.DATA));
          if (b != null) {
            b.release();
            readable++;
          }
        }
      }
      assertEquals(cache.blockCount(), readable, "blocks counted against blocks readable");
      assertEquals(readable * ENTRY, cache.size(), "accounted size against the blocks cached");
      long byPriority = 0;
      for (CachePriority p : CachePriority.values()) {
        byPriority += cache.prioritySize(p);
      }
      assertEquals(cache.size(), byPriority, "priority sizes against the total");
      assertTrue(cache.size() <= cache.config().hardLimit(), "size " + cache.size() + " over the hard limit");
    }
  }
}
