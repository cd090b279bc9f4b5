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
import org.junit.jupiter.api.Test;

/**
 * A started LRU's eviction thread with real threads: passes requested while it lingers after a pass and after it
 * parked both run, and passes that open the list lock to concurrent inserts keep the accounts exact.
 */
class LruEvictorTest {
  private static final int BLOCK = 4096;
  private static final long ENTRY = BLOCK + HeapBlock.LRU_ENTRY_OVERHEAD;
  private static final Duration DEADLINE = Duration.ofSeconds(10);

  private static void put(LruBlockCache cache, BlockKey key) {
    Blocks.cachePayload(cache, key, BLOCK);
  }

  /** Inserts until the cache is past its acceptable size, then waits for the pass that brings it back. */
  private static void overflowAndAwaitPass(LruBlockCache cache, String file) throws InterruptedException {
    long runs = cache.stats().evictionRunCount();
    for (int i = 0; cache.size() <= cache.config().acceptableSize(); i++) {
      put(cache, BlockKey.of(file, (long) i * BLOCK));
    }
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while ((cache.stats().evictionRunCount() == runs || cache.size() > cache.config().acceptableSize())
        && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertTrue(cache.stats().evictionRunCount() > runs, "no pass ran for the request of " + file);
    assertTrue(cache.size() <= cache.config().acceptableSize(), "size " + cache.size() + " after the pass");
  }

  @Test
  void aPassRequestedWhileTheEvictorLingersRuns() throws Exception {
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(100 * ENTRY).build())) {
      cache.start();
      overflowAndAwaitPass(cache, "first");
      overflowAndAwaitPass(cache, "second");
    }
  }

  @Test
  void aPassRequestedAfterTheEvictorParkedRuns() throws Exception {
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(100 * ENTRY).build())) {
      cache.start();
      overflowAndAwaitPass(cache, "first");
      long lingering = LruEvictor.REST_NANOS * LruEvictor.LINGER_RESTS;
      Thread.sleep(Duration.ofNanos(lingering).toMillis() * 20 + 20);
      overflowAndAwaitPass(cache, "second");
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
