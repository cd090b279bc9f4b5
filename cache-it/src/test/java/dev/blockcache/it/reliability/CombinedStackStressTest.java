package dev.blockcache.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.combined.CombinedBlockCache;
import dev.blockcache.stack.BlockCacheFactory;
import dev.blockcache.testing.Blocks;
import dev.blockcache.testing.Figures;
import dev.blockcache.testing.LeakRecorder;
import io.netty.buffer.ByteBuf;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAccumulator;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole stack as {@link BlockCacheFactory} builds it (LRU L1 + L2), once per L2 engine: 8 threads of get, cache,
 * evict and evict-by-file on random keys with random sizes (1 B to 96 KiB, fixed per key), for a fixed time
 * ({@value #QUICK_SECONDS} s in verify, {@code -Dblockcache.stress.seconds} under {@code -Preliability}).
 *
 * <p>Forbids: a payload that is not its key's (every hit is verified byte for byte), any exception from the cache, a
 * leaked buffer (netty's detector at PARANOID), L2 slots above the L2 capacity, direct memory outside netty's pool
 * above the configured L2 size (sampled every 256 operations; the offheap engine takes its capacity, the file
 * engines only the JDK's cached temporary buffers), the L1's accounted size above its hard limit. Prints
 * operations, wrong payloads, leaks and peaks as a {@code RELIABILITY|} line.
 */
class CombinedStackStressTest {
  private static final int THREADS = 8;
  private static final int QUICK_SECONDS = 3;
  private static final long L2_MB = 32;
  private static final long L1_BYTES = 8L << 20;
  private static final int MAX_BLOCK = 96 * 1024;
  private static final int FILES = 8;
  /** 1,024 keys of 48 KiB on average: about 1.5 times the L2, so blocks are both hit and evicted. */
  private static final int OFFSETS = 128;

  @TempDir
  Path dir;

  private static BlockCategory categoryOf(BlockKey key) {
    int pick = (int) Long.remainderUnsigned(key.hash64() >>> 7, 10);
    return pick < 7 ? BlockCategory.DATA : pick == 7 ? BlockCategory.INDEX : pick == 8 ? BlockCategory.BLOOM
        : BlockCategory.META;
  }

  private static int lengthOf(BlockKey key) {
    return 1 + (int) Long.remainderUnsigned(key.hash64(), MAX_BLOCK);
  }

  private String engineSpec(String engine) {
    return switch (engine) {
      case "file" -> "file:" + dir.resolve("l2.bin");
      case "files" -> "files:" + dir.resolve("l2-a.bin") + "," + dir.resolve("l2-b.bin");
      case "mmap" -> "mmap:" + dir.resolve("l2.mmap");
      default -> engine;
    };
  }

  @ParameterizedTest
  @ValueSource(strings = {"heap", "offheap", "file", "files", "mmap"})
  void everyPayloadIsItsKeysAndMemoryStaysWithinItsBounds(String engine) throws Exception {
    long seconds = Long.getLong("blockcache.stress.seconds", QUICK_SECONDS);
    LeakRecorder.drainLeaks();
    long directBefore = DirectMemory.outsidePool();
    Configuration conf = new Configuration(false);
    conf.set("hfile.block.cache.memory.size", String.valueOf(L1_BYTES));
    conf.set("hbase.bucketcache.ioengine", engineSpec(engine));
    conf.set("hbase.bucketcache.size", String.valueOf(L2_MB));
    conf.set("hbase.bucketcache.queue.addition.waittime", "5");
    BlockCache cache = BlockCacheFactory.fromConfiguration(conf).orElseThrow();
    CombinedBlockCache combined = (CombinedBlockCache) cache;
    BucketCache l2 = (BucketCache) combined.l2();
    long l1HardLimit = (long) (L1_BYTES * 0.99 * 1.2) + MAX_BLOCK;

    AtomicLong ops = new AtomicLong();
    AtomicLong hits = new AtomicLong();
    AtomicLong wrong = new AtomicLong();
    LongAccumulator peakDirect = new LongAccumulator(Math::max, 0);
    LongAccumulator peakSlots = new LongAccumulator(Math::max, 0);
    LongAccumulator peakL1 = new LongAccumulator(Math::max, 0);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch go = new CountDownLatch(1);
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      SplittableRandom random = new SplittableRandom(1000 + t);
      Thread thread = new Thread(() -> {
        try {
          go.await();
          for (long i = 0; System.nanoTime() < deadline && failure.get() == null; i++) {
            BlockKey key = BlockKey.of("hfile-" + random.nextInt(FILES), random.nextInt(OFFSETS) * 131_072L);
            int op = random.nextInt(1000);
            if (op < 550) {
              ByteBuf block = cache.getBlock(key, ReadOptions.of(categoryOf(key)));
              if (block != null) {
                hits.incrementAndGet();
                try {
                  if (block.readableBytes() != lengthOf(key) || !Blocks.matches(key, block)) {
                    wrong.incrementAndGet();
                  }
                } finally {
                  block.release();
                }
              }
            } else if (op < 900) {
              ByteBuf source = Blocks.payload(key, lengthOf(key));
              try {
                cache.cacheBlock(key, source, CacheOptions.of(categoryOf(key)));
              } finally {
                source.release();
              }
            } else if (op < 998) {
              cache.evictBlock(key);
            } else {
              cache.evictBlocksByFile(key.file());
            }
            ops.incrementAndGet();
            if ((i & 255) == 0) {
              peakDirect.accumulate(DirectMemory.outsidePool() - directBefore);
              peakSlots.accumulate(l2.metrics().allocator().usedItemBytes());
              peakL1.accumulate(combined.l1().size());
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "stress-" + engine + "-" + t);
      threads.add(thread);
      thread.start();
    }
    go.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    assertTrue(l2.awaitWritten(Duration.ofSeconds(60)), "L2 writers did not finish");
    long l2Capacity = l2.capacity();
    long l2Configured = L2_MB << 20;
    cache.close();
    List<String> leaks = LeakRecorder.drainLeaks();
    new Figures("CombinedStackStressTest", engine).put("seconds", seconds).put("threads", THREADS)
        .put("operations", ops.get()).put("hits", hits.get()).put("wrong", wrong.get()).put("leaks", leaks.size())
        .put("peakL2SlotBytes", peakSlots.get()).put("l2Capacity", l2Capacity)
        .put("peakDirectOutsidePool", peakDirect.get()).put("l2Configured", l2Configured)
        .put("peakL1Bytes", peakL1.get()).put("l1Configured", L1_BYTES).print();
    if (failure.get() != null) {
      throw new AssertionError("a worker failed", failure.get());
    }
    assertEquals(0, wrong.get(), "wrong payloads served");
    assertEquals(List.of(), leaks, "leaked buffers");
    assertTrue(hits.get() > 0, "no hit: the test exercised nothing");
    assertTrue(peakSlots.get() <= l2Capacity, "L2 slots " + peakSlots.get() + " > capacity " + l2Capacity);
    assertTrue(peakDirect.get() <= l2Configured, "direct memory outside netty's pool peaked at "
        + peakDirect.get() + " bytes above the start, more than the L2's " + l2Configured);
    assertTrue(peakL1.get() <= l1HardLimit, "L1 accounted " + peakL1.get() + " > hard limit " + l1HardLimit);
  }
}
