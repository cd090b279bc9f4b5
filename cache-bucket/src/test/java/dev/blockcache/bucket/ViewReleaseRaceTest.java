package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.engine.HeapIoEngine;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Races the releases of many views of one slot against the writer that wants that slot back. Forbids: a slot reused
 * while a view of it is held (a held view then shows another key's bytes), a slot freed twice or never (allocator
 * bytes after the last release), a pin or deferred free left behind. Deterministic: the slot is evicted and the cache
 * refilled (every other slot taken) before the releases start, all releases start together on a latch, and the
 * writer drains on the test thread while they run.
 */
class ViewReleaseRaceTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);
  private static final int VIEWS = 8;
  private static final int LENGTH = 200;
  /** One bucket of four 256-byte items. */
  private static final long CAPACITY = 1024;

  private static void put(BucketCache cache, BlockKey key) {
    Blocks.cachePayload(cache, key, LENGTH);
    BucketCaches.drain(cache);
  }

  @RepeatedTest(20)
  void heldViewsKeepTheirBytesAndTheLastReleaseFreesTheSlotOnce() throws Exception {
    BucketCacheConfig config = BucketCacheConfig.builder("heap", CAPACITY).bucketSizes(256).build();
    BucketCache cache = new BucketCache(config, new HeapIoEngine(CAPACITY, (int) CAPACITY), System::currentTimeMillis);
    BlockKey victim = BlockKey.of("v", 0);
    put(cache, victim);
    List<ByteBuf> views = new ArrayList<>();
    for (int i = 0; i < VIEWS; i++) {
      ByteBuf view = cache.getBlock(victim, DATA);
      assertNotNull(view);
      views.add(view);
    }
    cache.evictBlock(victim);
    for (int i = 0; i < 4; i++) {
      put(cache, BlockKey.of("other", i * 4096L)); // every free slot, and the victim's if it were (wrongly) free
    }
    assertEquals(3 * 256 + 256, cache.metrics().allocator().usedItemBytes(), "3 others + the pinned victim slot");

    CountDownLatch go = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (ByteBuf view : views) {
      Thread t = new Thread(() -> {
        try {
          go.await();
          Blocks.verify(victim, LENGTH, view);
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        } finally {
          view.release();
        }
      });
      threads.add(t);
      t.start();
    }
    go.countDown();
    BlockKey late = BlockKey.of("late", 0);
    put(cache, late); // races the releases for the victim's slot
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("a held view changed under its reader", failure.get());
    }
    assertEquals(0, cache.metrics().pinnedSlots());
    assertEquals(0, cache.pins().deferredFrees());
    long live = cache.index().size();
    assertEquals(live * 256, cache.metrics().allocator().usedItemBytes(), "slots allocated vs blocks indexed");
    assertTrue(live >= 3, "the cache lost blocks it had room for: " + live);
    cache.close();
    assertEquals(0, cache.metrics().allocator().usedItemBytes());
  }
}
