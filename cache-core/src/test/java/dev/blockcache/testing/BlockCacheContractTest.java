package dev.blockcache.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.CacheStats;
import dev.blockcache.api.ReadOptions;
import io.netty.buffer.ByteBuf;
import io.netty.util.IllegalReferenceCountException;
import java.nio.ReadOnlyBufferException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract every {@link BlockCache} keeps: ownership of blocks in and out, key semantics, evict-by-file, stats,
 * capacity, close, and payload integrity under concurrent use. Each implementation has a tiny subclass.
 *
 * <p>Every test runs under netty's PARANOID leak detector through {@link LeakCheckExtension}.
 */
public abstract class BlockCacheContractTest {
  /** Capacity of the caches under test: big enough for the functional tests, small enough to force eviction. */
  protected static final long CAPACITY = 4L * 1024 * 1024;
  /** Largest block the caches under test take. */
  protected static final int MAX_BLOCK = 256 * 1024;

  protected BlockCache cache;

  /** A fresh cache of {@code capacity} bytes that refuses blocks above {@code maxBlockSize}. */
  protected abstract BlockCache newCache(long capacity, int maxBlockSize);

  /** Waits, without sleeping, until the cache has applied every pending eviction and write. */
  protected abstract void settle(BlockCache cache);

  /**
   * The most bytes {@link BlockCache#size()} may reach after {@link #settle}: capacity for a strict cache, the hard
   * limit for one with background eviction.
   */
  protected long settledSizeLimit(long capacity) {
    return capacity;
  }

  /**
   * Operations each of {@link #concurrentReadersWritersAndEvictorsNeverSeeAWrongByte}'s 4 threads runs: 20,000; a
   * subclass that runs the contract on many configurations may run a quick form.
   */
  protected int concurrentOpsPerThread() {
    return 20_000;
  }

  /** The capacity the cache under test is created with and reports; {@link #CAPACITY} unless a subclass needs more. */
  protected long cacheCapacity() {
    return CAPACITY;
  }

  /** The capacity the cache reports: {@link #cacheCapacity()} unless it rounds it (an L2 keeps whole buckets). */
  protected long reportedCapacity() {
    return cacheCapacity();
  }

  /** The largest block of file {@code "f"} the cache takes: {@link #MAX_BLOCK} unless its limit includes a header. */
  protected int largestBlock() {
    return MAX_BLOCK;
  }

  @BeforeEach
  void createCache() {
    cache = newCache(cacheCapacity(), MAX_BLOCK);
  }

  @AfterEach
  void closeCache() {
    cache.close();
  }

  protected static BlockKey key(String file, long offset) {
    return BlockKey.of(file, offset);
  }

  /** Caches {@code key}'s payload of {@code length} bytes, releasing the source buffer. */
  protected CacheResult put(BlockKey key, int length, CacheOptions options) {
    ByteBuf source = Blocks.payload(key, length);
    try {
      return cache.cacheBlock(key, source, options);
    } finally {
      source.release();
    }
  }

  protected CacheResult put(BlockKey key, int length) {
    return put(key, length, CacheOptions.of(BlockCategory.INDEX));
  }

  @ParameterizedTest
  @EnumSource(LookupBy.class)
  void missReturnsNullAndCountsAMiss(LookupBy by) {
    assertNull(by.get(cache, key("f", 0), ReadOptions.of(BlockCategory.INDEX)));
    CacheStats stats = cache.stats();
    assertEquals(1, stats.missCount(BlockCategory.INDEX));
    assertEquals(0, stats.hitCount());
  }

  @ParameterizedTest
  @EnumSource(LookupBy.class)
  void getReturnsTheCachedBytesWithOneReferenceOwnedByTheCaller(LookupBy by) {
    BlockKey key = key("f", 4096);
    assertEquals(CacheResult.CACHED, put(key, 4096));
    ByteBuf block = by.get(cache, key, ReadOptions.of(BlockCategory.INDEX));
    assertNotNull(block);
    assertEquals(1, block.refCnt());
    Blocks.verify(key, 4096, block);
    assertTrue(block.release());
    assertEquals(0, block.refCnt());
    assertThrows(IllegalReferenceCountException.class, () -> block.getByte(0));
    assertEquals(1, cache.stats().hitCount(BlockCategory.INDEX));
  }

  @ParameterizedTest
  @EnumSource(LookupBy.class)
  void scopedReadLendsTheCachedBytesAndCountsAHit(LookupBy by) {
    BlockKey key = key("f", 4096);
    assertEquals(CacheResult.CACHED, put(key, 4096));
    settle(cache);
    AtomicInteger calls = new AtomicInteger();
    assertTrue(by.read(cache, key, ReadOptions.of(BlockCategory.INDEX), block -> {
      calls.incrementAndGet();
      assertTrue(block.isReadOnly());
      Blocks.verify(key, 4096, block);
    }));
    assertEquals(1, calls.get());
    assertEquals(1, cache.stats().hitCount(BlockCategory.INDEX));
    assertFalse(by.read(cache, key("f", 0), ReadOptions.of(BlockCategory.INDEX), block -> calls.incrementAndGet()));
    assertEquals(1, calls.get());
    assertEquals(1, cache.stats().missCount(BlockCategory.INDEX));
  }

  @ParameterizedTest
  @EnumSource(LookupBy.class)
  void aBlockKeptPastItsScopedReadThrowsOnEveryAccess(LookupBy by) {
    BlockKey key = key("f", 0);
    assertEquals(CacheResult.CACHED, put(key, 1000));
    settle(cache);
    AtomicReference<ByteBuf> kept = new AtomicReference<>();
    AtomicReference<ByteBuf> keptSlice = new AtomicReference<>();
    AtomicReference<ByteBuf> keptDuplicate = new AtomicReference<>();
    assertTrue(by.read(cache, key, ReadOptions.of(BlockCategory.INDEX), block -> {
      kept.set(block);
      keptSlice.set(block.slice(10, 20));
      keptDuplicate.set(block.duplicate());
    }));
    for (ByteBuf stale : List.of(kept.get(), keptSlice.get(), keptDuplicate.get())) {
      RuntimeException e = assertThrows(RuntimeException.class, () -> stale.getByte(0));
      assertTrue(e instanceof IllegalReferenceCountException || e instanceof IllegalStateException, e.toString());
      assertThrows(RuntimeException.class, () -> stale.getLong(0));
      assertThrows(RuntimeException.class, () -> stale.readByte());
    }
    assertEquals(0, kept.get().refCnt());
  }

  @ParameterizedTest
  @EnumSource(LookupBy.class)
  void aScopedReaderCannotRetainOrReleaseItsBlock(LookupBy by) {
    BlockKey key = key("f", 0);
    assertEquals(CacheResult.CACHED, put(key, 1000));
    settle(cache);
    ReadOptions options = ReadOptions.of(BlockCategory.INDEX);
    // A reference taken and kept would outlive the call: refused (at once by a reusable view, at return otherwise).
    assertThrows(IllegalStateException.class, () -> by.read(cache, key, options, ByteBuf::retain));
    assertThrows(IllegalStateException.class, () -> by.read(cache, key, options, ByteBuf::release));
    // The cache still serves the block, and nothing leaked (the leak check runs after each test).
    assertTrue(by.read(cache, key, options, block -> Blocks.verify(key, 1000, block)));
  }

  @ParameterizedTest
  @EnumSource(LookupBy.class)
  void aScopedReadNestedInAReaderGetsItsOwnBlock(LookupBy by) {
    BlockKey outer = key("f", 0);
    BlockKey inner = key("g", 0);
    assertEquals(CacheResult.CACHED, put(outer, 300));
    assertEquals(CacheResult.CACHED, put(inner, 500));
    settle(cache);
    ReadOptions options = ReadOptions.of(BlockCategory.INDEX);
    AtomicReference<ByteBuf> innerBlock = new AtomicReference<>();
    assertTrue(by.read(cache, outer, options, block -> {
      assertTrue(by.read(cache, inner, options, nested -> {
        innerBlock.set(nested);
        Blocks.verify(inner, 500, nested);
      }));
      Blocks.verify(outer, 300, block); // still the outer block after the nested read
    }));
    assertThrows(RuntimeException.class, () -> innerBlock.get().getByte(0));
  }

  @ParameterizedTest
  @EnumSource(LookupBy.class)
  void anExceptionFromAScopedReaderReachesTheCallerAndLeaksNothing(LookupBy by) {
    BlockKey key = key("f", 0);
    assertEquals(CacheResult.CACHED, put(key, 100));
    settle(cache);
    UnsupportedOperationException thrown = new UnsupportedOperationException("reader failed");
    assertEquals(thrown, assertThrows(UnsupportedOperationException.class,
        () -> by.read(cache, key, ReadOptions.of(BlockCategory.INDEX), block -> {
          throw thrown;
        })));
    assertTrue(by.read(cache, key, ReadOptions.of(BlockCategory.INDEX), block -> Blocks.verify(key, 100, block)));
  }

  @Test
  void fileNamesInAnyScriptRoundTripAndStayApart() {
    String[] files = {"hfile-a", "hfile-\u00e9", "hfile-\u00e8", "r\u00e9gion/cf/0123456789abcdef", "hfile-\u20ac",
        "0123456789abcdef\ud83d\ude00", "0123456789abcdef\ud83d\ude01"};
    for (int i = 0; i < files.length; i++) {
      assertEquals(CacheResult.CACHED, put(key(files[i], 512), 700 + i), files[i]);
    }
    settle(cache);
    for (int i = 0; i < files.length; i++) {
      BlockKey key = key(files[i], 512);
      ByteBuf block = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
      assertNotNull(block, files[i]);
      try {
        Blocks.verify(key, 700 + i, block);
      } finally {
        block.release();
      }
    }
  }

  @Test
  void cacheBlockCopiesAndLeavesTheCallersBufferAlone() {
    BlockKey key = key("f", 0);
    ByteBuf source = Blocks.payload(key, 1000);
    source.readerIndex(0);
    try {
      assertEquals(CacheResult.CACHED, cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA)));
      assertEquals(1, source.refCnt());
      assertEquals(0, source.readerIndex());
      source.setByte(10, source.getByte(10) + 1);
    } finally {
      source.release();
    }
    ByteBuf block = cache.getBlock(key, ReadOptions.of(BlockCategory.DATA));
    try {
      Blocks.verify(key, 1000, block);
    } finally {
      block.release();
    }
  }

  @Test
  void cachedBlocksAreReadOnly() {
    BlockKey key = key("f", 0);
    put(key, 512);
    ByteBuf block = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
    try {
      assertTrue(block.isReadOnly());
      assertThrows(ReadOnlyBufferException.class, () -> block.setByte(0, 1));
      assertThrows(RuntimeException.class, () -> block.writeByte(1));
      assertThrows(ReadOnlyBufferException.class, () -> block.nioBuffer().put(0, (byte) 1));
      assertFalse(block.hasArray());
    } finally {
      block.release();
    }
    ByteBuf again = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
    try {
      Blocks.verify(key, 512, again);
    } finally {
      again.release();
    }
  }

  @Test
  void eachGetIsAnIndependentReference() {
    BlockKey key = key("f", 0);
    put(key, 2048);
    ByteBuf a = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
    ByteBuf b = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
    assertTrue(a.release());
    assertEquals(1, b.refCnt());
    Blocks.verify(key, 2048, b);
    b.retain();
    assertFalse(b.release());
    assertTrue(b.release());
  }

  @Test
  void cachingAPresentKeyKeepsThePresentBlock() {
    BlockKey key = key("f", 0);
    assertEquals(CacheResult.CACHED, put(key, 100));
    assertEquals(CacheResult.ALREADY_CACHED, put(key, 200));
    ByteBuf block = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
    try {
      Blocks.verify(key, 100, block);
    } finally {
      block.release();
    }
    assertEquals(0, cache.stats().failedInsertionCount());
    settle(cache); // a block may be counted twice for the instant its writer moves it into a slot
    assertEquals(1, cache.blockCount());
  }

  @Test
  void evictedBlockStaysValidForItsHolder() {
    BlockKey key = key("f", 0);
    put(key, 4096);
    ByteBuf held = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
    assertTrue(cache.evictBlock(key));
    assertFalse(cache.evictBlock(key));
    assertNull(cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX)));
    Blocks.verify(key, 4096, held);
    assertTrue(held.release());
    assertEquals(0, cache.blockCount());
  }

  @Test
  void evictBlocksByFileRemovesOnlyThatFile() {
    for (int i = 0; i < 20; i++) {
      put(key("a", i * 100L), 100);
      put(key("b", i * 100L), 100);
    }
    assertEquals(20, cache.evictBlocksByFile("a"));
    assertEquals(0, cache.evictBlocksByFile("a"));
    assertEquals(0, cache.evictBlocksByFile("missing"));
    settle(cache);
    assertEquals(20, cache.blockCount());
    for (int i = 0; i < 20; i++) {
      assertNull(cache.getBlock(key("a", i * 100L), ReadOptions.of(BlockCategory.INDEX)));
      ByteBuf b = cache.getBlock(key("b", i * 100L), ReadOptions.of(BlockCategory.INDEX));
      assertNotNull(b);
      b.release();
    }
  }

  @Test
  void tooLargeBlockIsRefusedAndCountedAsAFailedInsertion() {
    assertEquals(CacheResult.TOO_LARGE, put(key("f", 0), largestBlock() + 1));
    assertEquals(1, cache.stats().failedInsertionCount());
    assertEquals(0, cache.blockCount());
    assertEquals(CacheResult.CACHED, put(key("f", 1), largestBlock()));
  }

  @Test
  void sizeAndCountsFollowInsertsAndEvictions() {
    assertEquals(reportedCapacity(), cache.capacity());
    assertEquals(0, cache.size());
    put(key("f", 0), 10_000, CacheOptions.of(BlockCategory.BLOOM));
    put(key("f", 1), 10_000, CacheOptions.of(BlockCategory.INDEX));
    settle(cache);
    assertTrue(cache.size() >= 20_000, "size " + cache.size());
    assertEquals(cache.capacity() - cache.size(), cache.freeSize());
    CacheStats stats = cache.stats();
    assertEquals(2, stats.blockCount());
    assertEquals(1, stats.blockCount(BlockCategory.BLOOM));
    assertEquals(1, stats.blockCount(BlockCategory.INDEX));
    cache.evictBlock(key("f", 0));
    settle(cache);
    assertEquals(1, cache.stats().blockCount());
    assertTrue(cache.size() >= 10_000 && cache.size() < 20_000, "size " + cache.size());
  }

  @Test
  void statsCountCachingRepeatAndUncountedLookups() {
    BlockKey key = key("f", 0);
    put(key, 100, CacheOptions.of(BlockCategory.BLOOM));
    ReadOptions bloom = ReadOptions.of(BlockCategory.BLOOM);
    cache.getBlock(key, bloom).release();
    cache.getBlock(key, bloom.notCaching()).release();
    cache.getBlock(key, bloom.withoutStats()).release();
    assertNull(cache.getBlock(key("f", 1), bloom));
    assertNull(cache.getBlock(key("f", 1), bloom.repeat()));
    assertNull(cache.getBlock(key("f", 1), bloom.notCaching()));
    CacheStats stats = cache.stats();
    assertEquals(2, stats.hitCount(BlockCategory.BLOOM));
    assertEquals(1, stats.cachingHitCount());
    assertEquals(2, stats.missCount(BlockCategory.BLOOM));
    assertEquals(1, stats.cachingMissCount());
    assertEquals(0.5, stats.hitRatio(), 1e-9);
    assertEquals(0.5, stats.cachingHitRatio(), 1e-9);
    assertEquals(0, stats.hitCount(BlockCategory.DATA));
  }

  @Test
  void fillingPastCapacityEvictsAndStaysWithinLimit() {
    int blockSize = 16 * 1024;
    long blocks = 3 * cacheCapacity() / blockSize;
    for (long i = 0; i < blocks; i++) {
      put(key("f", i * blockSize), blockSize);
    }
    settle(cache);
    assertTrue(cache.size() <= settledSizeLimit(cacheCapacity()), "size " + cache.size() + " over limit");
    CacheStats stats = cache.stats();
    assertTrue(stats.evictedBlockCount() > 0, "nothing evicted: " + stats);
    assertTrue(stats.evictionRunCount() > 0, "no eviction run: " + stats);
    assertTrue(cache.blockCount() < blocks);
    int present = 0;
    for (long i = 0; i < blocks; i++) {
      BlockKey key = key("f", i * blockSize);
      ByteBuf b = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
      if (b != null) {
        present++;
        Blocks.verify(key, blockSize, b);
        b.release();
      }
    }
    assertEquals(cache.blockCount(), present);
  }

  @Test
  void closedCacheMissesRefusesAndKeepsHeldBlocksValid() {
    BlockKey key = key("f", 0);
    put(key, 300);
    ByteBuf held = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
    cache.close();
    cache.close();
    assertNull(cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX)));
    assertEquals(CacheResult.DISABLED, put(key("f", 1), 300));
    Blocks.verify(key, 300, held);
    held.release();
  }

  @Test
  void concurrentReadersWritersAndEvictorsNeverSeeAWrongByte() throws Exception {
    int threads = 4;
    int opsPerThread = concurrentOpsPerThread();
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong hits = new AtomicLong();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread worker = new Thread(() -> {
        try {
          start.await();
          ThreadLocalRandom random = ThreadLocalRandom.current();
          for (int i = 0; i < opsPerThread && failure.get() == null; i++) {
            String file = "file-" + random.nextInt(4);
            BlockKey key = key(file, random.nextInt(512) * 1024L);
            int length = 1 + (int) Long.remainderUnsigned(key.hash64(), 32 * 1024);
            int op = random.nextInt(100);
            if (op < 60) {
              ByteBuf b = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
              if (b != null) {
                try {
                  Blocks.verify(key, length, b);
                  hits.incrementAndGet();
                } finally {
                  b.release();
                }
              }
            } else if (op < 95) {
              put(key, length);
            } else if (op < 99) {
              cache.evictBlock(key);
            } else {
              cache.evictBlocksByFile(file);
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "contract-worker-" + t);
      workers.add(worker);
      worker.start();
    }
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("worker failed", failure.get());
    }
    assertTrue(hits.get() > 0, "the workload never hit");
    settle(cache);
    assertTrue(cache.size() <= settledSizeLimit(cacheCapacity()), "size " + cache.size());
  }
}
