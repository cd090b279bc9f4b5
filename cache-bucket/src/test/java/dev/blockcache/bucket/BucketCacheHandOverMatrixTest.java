package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code handOver} on every L2 configuration of {@link L2Spec} (its puts axis aside: these tests make their own puts,
 * into a started cache): the cache takes the caller's reference on every result, serves the block while it waits and
 * from its slot, and releases the buffer exactly once — after the write on success, at once on a refusal. Sources are
 * pooled direct buffers: a release too early or twice would hand their memory to another allocation (netty throws on
 * a second release), and one never made is a leak that the PARANOID detector reports after the test.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("specs")
class BucketCacheHandOverMatrixTest {
  private static final CacheOptions DATA = CacheOptions.of(BlockCategory.DATA);
  private static final ReadOptions READ = ReadOptions.of(BlockCategory.DATA);

  @Parameter
  L2Spec spec;

  @TempDir
  Path dir;

  private BucketCache cache;

  /** The contract matrix's configurations, each once: these tests make their own puts, into a started cache. */
  static List<L2Spec> specs() {
    return BucketCacheMatrixContractTest.specs().stream().map(s -> s.withPuts(L2Spec.Puts.HAND_OVER)).distinct()
        .toList();
  }

  @BeforeEach
  void createCache() {
    cache = BucketCaches.started(spec.config(dir));
  }

  @AfterEach
  void closeCache() {
    cache.close();
  }

  /** {@code key}'s payload in a new pooled direct buffer, one reference, owned by the caller. */
  private static ByteBuf source(BlockKey key, int length) {
    ByteBuf payload = Blocks.payload(key, length);
    try {
      ByteBuf direct = PooledByteBufAllocator.DEFAULT.directBuffer(length);
      direct.writeBytes(payload, payload.readerIndex(), length);
      return direct;
    } finally {
      payload.release();
    }
  }

  @Test
  void aHandedOverBlockReadsBackAndItsBufferIsReleasedOnceWritten() {
    BlockKey key = BlockKey.of("f", 4096);
    ByteBuf source = source(key, 5000);
    assertEquals(CacheResult.CACHED, cache.handOver(key, source, DATA));
    ByteBuf early = cache.getBlock(key, READ); // waiting in the RAM cache, or already in its slot
    assertNotNull(early);
    BucketCaches.drain(cache);
    Blocks.verify(key, 5000, early);
    early.release();
    assertEquals(0, source.refCnt(), "the cache did not release the handed-over buffer once written");
    ByteBuf written = cache.getBlock(key, READ);
    assertNotNull(written);
    Blocks.verify(key, 5000, written);
    written.release();
    assertEquals(1, cache.blockCount());
  }

  @Test
  void aCallerThatRetainsBeforeHandingOverKeepsReadingItsBufferUntilItReleases() {
    BlockKey key = BlockKey.of("f", 8192);
    ByteBuf read = source(key, 5000);
    assertEquals(CacheResult.CACHED, cache.handOver(key, read.retain(), DATA));
    Blocks.verify(key, 5000, read); // the caller reads its own reference while the block waits for its writer
    BucketCaches.drain(cache);
    assertEquals(1, read.refCnt(), "the cache must release the one reference it was handed, once written");
    Blocks.verify(key, 5000, read);
    ByteBuf written = cache.getBlock(key, READ);
    assertNotNull(written);
    Blocks.verify(key, 5000, written);
    written.release();
    read.release();
  }

  @Test
  void aScopedReadOfAWaitingBlockSeesItsBytes() {
    BlockKey key = BlockKey.of("f", 0);
    assertEquals(CacheResult.CACHED, cache.handOver(key, source(key, 3000), DATA));
    assertTrue(cache.read(key, READ, block -> Blocks.verify(key, 3000, block)));
    BucketCaches.drain(cache);
    assertTrue(cache.read(key, READ, block -> Blocks.verify(key, 3000, block)));
  }

  @Test
  void everyRefusalReleasesTheHandedOverBuffer() {
    BlockKey key = BlockKey.of("f", 0);
    assertEquals(CacheResult.CACHED, cache.handOver(key, source(key, 1000), DATA));

    ByteBuf again = source(key, 1000);
    assertEquals(CacheResult.ALREADY_CACHED, cache.handOver(key, again, DATA));
    assertEquals(0, again.refCnt(), "ALREADY_CACHED kept the buffer");

    BlockKey big = BlockKey.of("f", 1 << 20);
    ByteBuf tooLarge = source(big, BucketCaches.largestBlock("f") + 1);
    assertEquals(CacheResult.TOO_LARGE, cache.handOver(big, tooLarge, DATA));
    assertEquals(0, tooLarge.refCnt(), "TOO_LARGE kept the buffer");

    ByteBuf noKey = source(key, 10);
    NullPointerException e = assertThrows(NullPointerException.class, () -> cache.handOver(null, noKey, DATA));
    assertEquals("key", e.getMessage());
    assertEquals(0, noKey.refCnt(), "a null key kept the buffer");

    BucketCaches.drain(cache);
    cache.close();
    BlockKey late = BlockKey.of("f", 8192);
    ByteBuf closed = source(late, 1000);
    assertEquals(CacheResult.DISABLED, cache.handOver(late, closed, DATA));
    assertEquals(0, closed.refCnt(), "DISABLED kept the buffer");
    assertEquals(2, cache.stats().failedInsertionCount(), "TOO_LARGE and DISABLED count, ALREADY_CACHED does not");
  }

  @Test
  void aBlockEvictedWhileItWaitsIsReleasedByItsWriter() {
    BlockKey key = BlockKey.of("f", 0);
    ByteBuf source = source(key, 2000);
    assertEquals(CacheResult.CACHED, cache.handOver(key, source, DATA));
    cache.evictBlock(key);
    BucketCaches.drain(cache);
    assertEquals(0, source.refCnt());
    assertEquals(0, cache.blockCount());
  }

  /** Blocks handed over and read by several threads at once: every read sees its key's bytes, nothing leaks. */
  @Test
  void concurrentHandOversAndReadsSeeWholeBlocks() throws Exception {
    int threads = 3;
    int perThread = 60;
    List<ByteBuf> sources = new ArrayList<>();
    for (int i = 0; i < threads * perThread; i++) {
      sources.add(source(BlockKey.of("f" + (i % 4), i * 8192L), 1000 + i * 37));
    }
    CountDownLatch go = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t * perThread;
      Thread worker = new Thread(() -> {
        try {
          go.await();
          for (int i = first; i < first + perThread; i++) {
            BlockKey key = BlockKey.of("f" + (i % 4), i * 8192L);
            CacheResult result = cache.handOver(key, sources.get(i), DATA);
            assertTrue(result == CacheResult.CACHED || result == CacheResult.NO_SPACE, result::toString);
            ByteBuf block = cache.getBlock(key, READ);
            if (block != null) {
              Blocks.verify(key, 1000 + i * 37, block);
              block.release();
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      });
      workers.add(worker);
      worker.start();
    }
    go.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    BucketCaches.drain(cache);
    for (ByteBuf source : sources) {
      assertEquals(0, source.refCnt(), "a handed-over buffer was not released after its write");
    }
  }
}
