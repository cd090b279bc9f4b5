package dev.blockcache.l1.tinylfu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.testing.Figures;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The size bound of a started {@link TinyLfuBlockCache} (its class comment), under real inserting threads: at every
 * sample the size is at most {@code capacity + overshoot} plus one block per inserting thread, and once the inserts
 * are done at most {@code capacity + overshoot}. Checked with a maintenance thread that runs, and with one held back
 * for the whole fill, where only the inserting threads' own clean-ups keep the bound (Caffeine alone would let its
 * write buffer, hundreds of blocks, pile up above the capacity).
 */
class TinyLfuOvershootBoundTest {
  private static final long CAPACITY = 16L << 20;
  private static final int MAX_BLOCK = 64 * 1024;
  private static final int THREADS = 4;
  private static final int INSERTS_PER_THREAD = 5_000;

  @Test
  void aRunningMaintenanceThreadKeepsTheBound() throws Exception {
    fillAndCheck(r -> new Thread(r, "tinylfu-maintenance-test"), "running", () -> { });
  }

  @Test
  void insertsKeepTheBoundWhileTheMaintenanceThreadIsHeldBack() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ThreadFactory held = r -> new Thread(() -> {
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      r.run();
    }, "tinylfu-maintenance-held");
    try {
      fillAndCheck(held, "held back", release::countDown);
    } finally {
      release.countDown();
    }
  }

  /**
   * Fills a cache started with {@code maintenance} from several threads and checks the bound; runs {@code after}
   * before closing the cache, whether the checks pass or not.
   */
  private static void fillAndCheck(ThreadFactory maintenance, String label, Runnable after) throws Exception {
    TinyLfuConfig config = TinyLfuConfig.of(CAPACITY, MAX_BLOCK, 16 * 1024);
    try (TinyLfuBlockCache cache = new TinyLfuBlockCache(config).start(maintenance)) {
      try {
        fillAndCheck(cache, label);
      } finally {
        after.run(); // before close(), which waits for the maintenance thread
      }
    }
  }

  /** The fill and its checks: size sampled during the fill, then after it. */
  @SuppressWarnings("ThreadPriorityCheck") // the sampling loop yields so that the filling threads get the cores
  private static void fillAndCheck(TinyLfuBlockCache cache, String label) throws Exception {
    long settledBound = CAPACITY + cache.maxOvershoot();
    long anyTimeBound = settledBound + THREADS * ((long) MAX_BLOCK + HeapBlock.TINYLFU_ENTRY_OVERHEAD);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long peak = 0;
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(THREADS);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int id = t;
      Thread thread = new Thread(() -> {
        SplittableRandom random = new SplittableRandom(id);
        byte[] bytes = new byte[MAX_BLOCK];
        try {
          start.await();
          for (int i = 0; i < INSERTS_PER_THREAD; i++) {
            int length = 1 + random.nextInt(MAX_BLOCK);
            BlockKey key = BlockKey.of("file-" + id, (long) i * MAX_BLOCK);
            cache.cacheBlock(key, Unpooled.wrappedBuffer(bytes, 0, length), CacheOptions.of(BlockCategory.DATA));
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        } finally {
          done.countDown();
        }
      });
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    while (done.getCount() > 0) {
      long size = cache.size();
      peak = Math.max(peak, size);
      assertTrue(size <= anyTimeBound, label + ": size " + size + " above " + anyTimeBound + " during the fill");
      Thread.yield();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    long settled = cache.size();
    new Figures("TinyLfuOvershootBoundTest", label).put("capacity", CAPACITY).put("overshoot", cache.maxOvershoot())
        .put("peakDuringFill", peak).put("afterFill", settled).print();
    assertTrue(settled <= settledBound, label + ": size " + settled + " above " + settledBound + " after the fill");
    cache.cleanUp();
    assertTrue(cache.size() <= CAPACITY, label + ": " + cache.size() + " above the capacity after cleanUp");
    assertTrue(cache.stats().evictedBlockCount() > 0, "the fill evicted");
    long accounted = cache.stats().blockCount();
    assertEquals(cache.blockCount(), accounted, "block counts agree after the fill");
  }
}
