package dev.blockcache.l1.tinylfu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.l1.Insert;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** TinyLfuBlockCache behaviour beyond the shared contract. */
class TinyLfuBlockCacheTest {
  private static CacheResult put(TinyLfuBlockCache cache, BlockKey key, Insert insert) {
    ByteBuf source = Blocks.payload(key, 4096);
    if (insert == Insert.HAND_OVER) {
      return cache.handOver(key, source, CacheOptions.of(BlockCategory.DATA));
    }
    try {
      return cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA));
    } finally {
      source.release();
    }
  }

  @ParameterizedTest
  @EnumSource(Insert.class)
  void cachingAPresentKeyAgainCountsAsARead(Insert insert) {
    // 100 blocks, 60 of them cached first: Caffeine counts frequencies from half full on, as plain Caffeine does.
    long capacity = 100L * (4096 + HeapBlock.TINYLFU_ENTRY_OVERHEAD);
    try (TinyLfuBlockCache cache = new TinyLfuBlockCache(TinyLfuConfig.of(capacity, 65536, 4096))) {
      for (int i = 0; i < 60; i++) {
        put(cache, BlockKey.of("fill", i), insert);
      }
      BlockKey a = BlockKey.of("f", 0);
      BlockKey b = BlockKey.of("f", 1);
      BlockKey c = BlockKey.of("f", 2);
      for (BlockKey key : List.of(a, b, c)) {
        assertEquals(CacheResult.CACHED, put(cache, key, insert));
      }
      List<BlockKey> before = cache.coldest(100);
      assertTrue(before.indexOf(a) < before.indexOf(b), "a, cached first, is evicted before b: " + before);
      assertEquals(CacheResult.ALREADY_CACHED, put(cache, a, insert));
      List<BlockKey> after = cache.coldest(100);
      assertTrue(after.indexOf(b) < after.indexOf(a), "re-caching a did not count as a read: " + after);
      assertEquals(0, cache.stats().hitCount(), "a read for the policy, not a hit");
    }
  }

  private static void putSized(TinyLfuBlockCache cache, BlockKey key, int bytes) {
    ByteBuf source = Blocks.payload(key, bytes);
    try {
      assertTrue(cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA)).isCached());
    } finally {
      source.release();
    }
  }

  @Test
  void blocksOfTheExpectedSizeFillTheCapacityWithoutMovingTheCountBound() {
    long entry = 4096 + HeapBlock.TINYLFU_ENTRY_OVERHEAD;
    try (TinyLfuBlockCache cache = new TinyLfuBlockCache(TinyLfuConfig.of(100 * entry, 65536, 4096))) {
      assertEquals(100, cache.countBound());
      for (int i = 0; i < 1_000; i++) {
        putSized(cache, BlockKey.of("f", i), 4096);
        assertTrue(cache.size() <= cache.capacity(), "size " + cache.size() + " after insert " + i);
      }
      assertEquals(100, cache.countBound());
      assertEquals(100, cache.blockCount());
    }
  }

  @Test
  void heavierBlocksThanExpectedLowerTheCountBoundToTheCapacity() {
    long entry = 4096 + HeapBlock.TINYLFU_ENTRY_OVERHEAD;
    try (TinyLfuBlockCache cache = new TinyLfuBlockCache(TinyLfuConfig.of(100 * entry, 65536, 4096))) {
      for (int i = 0; i < 1_000; i++) {
        putSized(cache, BlockKey.of("f", i), 16_384);
        assertTrue(cache.size() <= cache.capacity() + cache.maxOvershoot(), "size " + cache.size() + " at " + i);
      }
      cache.cleanUp();
      assertTrue(cache.size() <= cache.capacity(), "size " + cache.size() + " after cleanUp");
      assertTrue(cache.countBound() < 30, "bound " + cache.countBound() + " for blocks four times heavier");
      assertTrue(cache.size() > cache.capacity() * 3 / 4, "size " + cache.size() + ": the bound went too low");
    }
  }

  @Test
  void lighterBlocksThanExpectedRaiseTheCountBoundToFillTheCapacity() {
    long entry = 16_384 + HeapBlock.TINYLFU_ENTRY_OVERHEAD;
    try (TinyLfuBlockCache cache = new TinyLfuBlockCache(TinyLfuConfig.of(100 * entry, 65536, 16_384))) {
      for (int i = 0; i < 2_000; i++) {
        putSized(cache, BlockKey.of("f", i), 4096);
      }
      cache.cleanUp();
      assertTrue(cache.countBound() > 300, "bound " + cache.countBound() + " for blocks four times lighter");
      assertTrue(cache.size() > cache.capacity() * 15 / 16 - 4096, "size " + cache.size() + " of " + cache.capacity());
      assertTrue(cache.size() <= cache.capacity(), "size " + cache.size());
    }
  }

  @Test
  void aBlockHeavierThanTheCapacityIsNotKept() {
    try (TinyLfuBlockCache cache = new TinyLfuBlockCache(TinyLfuConfig.of(8192, 65536, 4096))) {
      putSized(cache, BlockKey.of("f", 0), 16_384);
      assertTrue(cache.size() <= cache.capacity() + cache.maxOvershoot(), "size " + cache.size());
      cache.cleanUp();
      assertEquals(0, cache.blockCount());
      putSized(cache, BlockKey.of("f", 1), 1024);
      assertEquals(1, cache.blockCount(), "a block that fits is kept after one that did not");
    }
  }

  /** Block {@code i} of the thread inserting by {@code insert}: keys of the two inserting threads never collide. */
  private static BlockKey racedKey(Insert insert, int i, int files) {
    return BlockKey.of("f" + (i % files), (long) insert.ordinal() << 40 | i);
  }

  /**
   * Two threads insert (one copying, one handing over) into a started cache of 64 blocks while a third evicts single
   * blocks and whole files: blocks are evicted by the maintenance thread, by {@code evictBlock} and by evict-by-file,
   * possibly between their publication and their linking into their file's chain. Afterwards the counts and the
   * size must describe the map exactly: each block counted once, and uncounted once when it left.
   */
  @Test
  void countsAndSizeMatchTheMapAfterRacingInsertsAndRemovals() throws Exception {
    int files = 8;
    int blocksPerThread = 30_000;
    long weight;
    try (TinyLfuBlockCache one = new TinyLfuBlockCache(TinyLfuConfig.of(100 * 8192L, 65536, 4096))) {
      put(one, BlockKey.of("w", 0), Insert.COPY);
      put(one, BlockKey.of("w", 1), Insert.HAND_OVER);
      weight = one.size() / 2;
      assertEquals(2 * weight, one.size(), "both insert paths weigh a 4 KiB block alike");
    }
    try (TinyLfuBlockCache cache = new TinyLfuBlockCache(TinyLfuConfig.of(64 * weight, 65536, 4096)).start()) {
      CountDownLatch go = new CountDownLatch(1);
      AtomicBoolean inserting = new AtomicBoolean(true);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> threads = new ArrayList<>();
      for (Insert insert : Insert.values()) {
        threads.add(new Thread(() -> {
          try {
            go.await();
            for (int i = 0; i < blocksPerThread; i++) {
              put(cache, racedKey(insert, i, files), insert);
            }
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
          }
        }));
      }
      Thread remover = new Thread(() -> {
        SplittableRandom random = new SplittableRandom(19);
        try {
          go.await();
          while (inserting.get()) {
            int i = random.nextInt(blocksPerThread);
            Insert insert = Insert.values()[random.nextInt(Insert.values().length)];
            cache.evictBlock(racedKey(insert, i, files));
            if (random.nextInt(64) == 0) {
              cache.evictBlocksByFile("f" + random.nextInt(files));
            }
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      });
      threads.forEach(Thread::start);
      remover.start();
      go.countDown();
      for (Thread t : threads) {
        t.join();
      }
      inserting.set(false);
      remover.join();
      assertNull(failure.get(), () -> "a thread failed: " + failure.get());
      cache.cleanUp();
      long blocks = cache.blockCount();
      assertTrue(blocks <= 64, "blocks in the map: " + blocks);
      assertEquals(blocks, cache.stats().blockCount(), "counted blocks against the map's");
      assertEquals(blocks, cache.stats().blockCount(BlockCategory.DATA), "counted data blocks against the map's");
      assertEquals(blocks * weight, cache.size(), "size against the map's blocks");
      assertTrue(cache.stats().evictedBlockCount() > 0, "blocks were evicted for size");
    }
  }
}
