package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.stats.BucketCacheMetrics;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Readers, writers and evictors on a started offheap L2 much smaller than the data: every byte served is checked
 * against its key, allocated slot bytes never exceed capacity, and when the threads stop no slot is pinned, every
 * deferred free has happened and (through the leak check) no buffer leaked.
 *
 * <p>The readers are made to overlap the mutating threads rather than trusted to: the writers and the evictor start
 * only after every reader has hit a prefilled block, and the readers go on until the writers and the evictor are done.
 * Before, the threads started together and nothing ordered them: on a loaded 2-core machine the evictor ran first
 * and emptied the prefill (evict-by-file of file-0 plus random evicts, in about a millisecond), the readers then did
 * their 20,000 gets on an empty cache before the writers had put anything, and the run failed with "no hit at all"
 * (about 1 run in 10 under load, both variants).
 */
class BucketCacheStressTest {
  private static final int READERS = 3;
  private static final int WRITERS = 2;
  private static final int OPS = 20_000;
  private static final int PREFILLED = 200;

  private static int lengthOf(BlockKey key) {
    return 1 + (int) Long.remainderUnsigned(key.hash64(), 48 * 1024);
  }

  private static BlockKey randomKey(ThreadLocalRandom random) {
    return BlockKey.of("file-" + random.nextInt(8), random.nextInt(1024) * 65536L);
  }

  /** Queued (writer threads, the default) and inline ({@code hbase.bucketcache.writer.inline}) writes. */
  @ParameterizedTest(name = "writer.inline={0}")
  @ValueSource(booleans = {false, true})
  void readersWritersAndEvictorsNeverSeeAWrongByteNorPassCapacity(boolean inline) throws Exception {
    BucketCache cache = BucketCaches.create(BucketCaches.config("offheap", 16L << 20).writerInline(inline).build());
    // Blocks the readers hit first, before the writers and the evictor start (see the class notes).
    for (int i = 0; i < PREFILLED; i++) {
      BlockKey key = BlockKey.of("file-0", i * 65536L);
      ByteBuf source = Blocks.payload(key, lengthOf(key));
      try {
        cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA));
      } finally {
        source.release();
      }
      BucketCaches.drain(cache);
    }
    // Prefilled blocks still cached (a starved size class may have evicted a few while prefilling); nothing evicts
    // them before every reader has hit one, since the writers and the evictor wait for that.
    List<BlockKey> present = new ArrayList<>();
    for (int i = 0; i < PREFILLED; i++) {
      BlockKey key = BlockKey.of("file-0", i * 65536L);
      if (cache.index().peek(key) != IndexEntry.ABSENT) {
        present.add(key);
      }
    }
    assertFalse(present.isEmpty(), "the prefill left nothing cached");
    cache.start();
    long capacity = cache.capacity();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong hits = new AtomicLong();
    AtomicLong peakUsed = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch readersHit = new CountDownLatch(READERS);
    CountDownLatch mutatorsDone = new CountDownLatch(WRITERS + 1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < READERS + WRITERS + 1; t++) {
      int role = t < READERS ? 0 : t < READERS + WRITERS ? 1 : 2;
      BlockKey firstRead = present.get(t % present.size());
      Thread thread = new Thread(() -> {
        try {
          start.await();
          if (role == 0) {
            try {
              ByteBuf block = cache.getBlock(firstRead, ReadOptions.of(BlockCategory.DATA));
              assertNotNull(block, "prefilled " + firstRead + " missed before any eviction");
              try {
                Blocks.verify(firstRead, lengthOf(firstRead), block);
                hits.incrementAndGet();
              } finally {
                block.release();
              }
            } finally {
              readersHit.countDown(); // also on failure: the others must not wait for this reader
            }
          } else {
            readersHit.await();
          }
          ThreadLocalRandom random = ThreadLocalRandom.current();
          // Readers: at least OPS gets, and on until the writers and the evictor are done.
          for (int i = 0; (i < OPS || (role == 0 && mutatorsDone.getCount() > 0)) && failure.get() == null; i++) {
            BlockKey key = randomKey(random);
            if (role == 0) {
              ByteBuf block = cache.getBlock(key, ReadOptions.of(BlockCategory.DATA));
              if (block != null) {
                try {
                  Blocks.verify(key, lengthOf(key), block);
                  hits.incrementAndGet();
                } finally {
                  block.release();
                }
              }
            } else if (role == 1) {
              ByteBuf source = Blocks.payload(key, lengthOf(key));
              try {
                cache.cacheBlock(key, source, random.nextInt(10) == 0
                    ? CacheOptions.inMemory(BlockCategory.DATA) : CacheOptions.of(BlockCategory.DATA));
              } finally {
                source.release();
              }
            } else if (random.nextInt(200) == 0) {
              cache.evictBlocksByFile(key.file());
            } else {
              cache.evictBlock(key);
            }
            if ((i & 255) == 0) {
              peakUsed.accumulateAndGet(cache.metrics().allocator().usedItemBytes(), Math::max);
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        } finally {
          if (role != 0) {
            mutatorsDone.countDown();
          }
        }
      }, "stress-" + t);
      threads.add(thread);
      thread.start();
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("worker failed", failure.get());
    }
    BucketCaches.drain(cache);
    BucketCacheMetrics metrics = cache.metrics();
    assertTrue(hits.get() > 0, "no hit at all");
    assertTrue(peakUsed.get() <= capacity, "slots " + peakUsed.get() + " over capacity " + capacity);
    assertTrue(cache.stats().evictedBlockCount() > 0, "the workload never evicted: " + cache.stats());
    assertEquals(0, metrics.pinnedSlots());
    assertEquals(0, cache.pins().deferredFrees());
    assertEquals(0, metrics.headerMismatchCount());
    assertEquals(cache.index().size(), cache.stats().blockCount(), "per-category counts drifted");
    cache.close();
    assertTrue(cache.engineReleased());
    assertEquals(0, cache.allocator().stats().usedItemBytes(), "close left slots allocated");
  }
}
