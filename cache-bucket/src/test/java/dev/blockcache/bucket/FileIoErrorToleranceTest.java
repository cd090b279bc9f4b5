package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.EngineGeometry;
import dev.blockcache.bucket.engine.FileEngineOptions;
import dev.blockcache.bucket.engine.FileIoEngine;
import dev.blockcache.testing.Blocks;
import dev.blockcache.testing.Figures;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file engine whose channel fails (EIO, ENOSPC, short reads, slow reads) under a cache with an injected clock:
 * errors are misses until they have lasted {@code hbase.bucketcache.ioengine.errors.tolerated.duration}, then the L2
 * disables itself; no exception ever reaches the caller. Slow reads that succeed are not errors, however slow; slow
 * reads that end in an error count from when the window opened, so the time spent stalled counts.
 */
class FileIoErrorToleranceTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);
  private static final long TOLERATED_MS = 60_000;

  @TempDir
  Path dir;

  private final AtomicLong clock = new AtomicLong(1_000_000);
  private final FaultyChannelIo io = new FaultyChannelIo();
  private BucketCache cache;

  @BeforeEach
  void open() throws IOException {
    BucketCacheConfig config = BucketCaches.config("file:" + dir.resolve("cache.bin"), 16L << 20)
        .ioErrorsToleratedMs(TOLERATED_MS).build();
    long bucket = config.bucketCapacity();
    FileIoEngine engine = FileIoEngine.open(config.ioEngine(), (config.capacity() / bucket) * bucket,
        EngineGeometry.segmentSize(bucket), FileEngineOptions.DEFAULTS.withIo(io));
    cache = new BucketCache(config, engine, clock::get);
  }

  @org.junit.jupiter.api.AfterEach
  void close() {
    cache.close();
  }

  private CacheResult put(BlockKey key) {
    ByteBuf source = Blocks.payload(key, 4000);
    try {
      return cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA));
    } finally {
      source.release();
    }
  }

  private void putWritten(BlockKey key) {
    assertEquals(CacheResult.CACHED, put(key));
    BucketCaches.drain(cache);
  }

  @Test
  void sustainedReadErrorsDisableTheCacheAfterTheWindowAndNeverThrow() {
    BlockKey key = BlockKey.of("f", 0);
    putWritten(key);
    io.readFault = FaultyChannelIo.Fault.EIO;
    assertNull(cache.getBlock(key, DATA));
    clock.addAndGet(TOLERATED_MS / 2);
    assertNull(cache.getBlock(key, DATA));
    assertFalse(cache.metrics().disabledByIoErrors(), "disabled inside the tolerated window");
    clock.addAndGet(TOLERATED_MS / 2 + 1);
    assertNull(cache.getBlock(key, DATA));
    assertTrue(cache.metrics().disabledByIoErrors());

    io.readFault = FaultyChannelIo.Fault.NONE;
    assertNull(cache.getBlock(key, DATA), "a disabled L2 serves nothing, even once the device recovers");
    assertEquals(CacheResult.DISABLED, put(BlockKey.of("f", 1)));
    assertEquals(1, cache.metrics().droppedWhileDisabledCount());
    assertEquals(3, cache.metrics().ioErrorCount());
  }

  @Test
  void aSuccessInsideTheWindowClosesIt() {
    BlockKey key = BlockKey.of("f", 0);
    putWritten(key);
    io.readFault = FaultyChannelIo.Fault.SHORT_READ;
    assertNull(cache.getBlock(key, DATA), "a short read is a miss");
    clock.addAndGet(TOLERATED_MS - 1);
    io.readFault = FaultyChannelIo.Fault.NONE;
    ByteBuf block = cache.getBlock(key, DATA);
    assertNotNull(block);
    Blocks.verify(key, 4000, block);
    block.release();
    io.readFault = FaultyChannelIo.Fault.SHORT_READ;
    clock.addAndGet(TOLERATED_MS - 1);
    assertNull(cache.getBlock(key, DATA));
    clock.addAndGet(TOLERATED_MS - 1);
    assertNull(cache.getBlock(key, DATA));
    assertFalse(cache.metrics().disabledByIoErrors(), "the success reopened the window");
    clock.addAndGet(2);
    assertNull(cache.getBlock(key, DATA));
    assertTrue(cache.metrics().disabledByIoErrors());
  }

  @Test
  void noSpaceOnWritesDropsBlocksThenDisablesTheCache() {
    io.noSpace = true;
    assertEquals(CacheResult.CACHED, put(BlockKey.of("f", 0)));
    BucketCaches.drain(cache);
    assertNull(cache.getBlock(BlockKey.of("f", 0), DATA), "a block whose write failed is not served");
    clock.addAndGet(TOLERATED_MS + 1);
    put(BlockKey.of("f", 1));
    BucketCaches.drain(cache);
    assertTrue(cache.metrics().disabledByIoErrors());
    assertEquals(2, cache.metrics().noSpaceCount());
    assertEquals(CacheResult.DISABLED, put(BlockKey.of("f", 2)));
    assertEquals(0, cache.blockCount());
  }

  private void assertServed(BlockKey key) {
    ByteBuf block = cache.getBlock(key, DATA);
    assertNotNull(block, "a slow but successful read is a hit");
    Blocks.verify(key, 4000, block);
    block.release();
  }

  @Test
  void slowReadsThatSucceedNeverDisableTheCache() {
    BlockKey key = BlockKey.of("f", 0);
    putWritten(key);
    io.clock = clock;
    io.slowMs = 2 * TOLERATED_MS;
    io.readFault = FaultyChannelIo.Fault.SLOW;
    for (int i = 0; i < 5; i++) {
      assertServed(key);
    }
    assertFalse(cache.metrics().disabledByIoErrors(), "slowness alone is not an IO error");
    assertEquals(0, cache.metrics().ioErrorCount());
  }

  @Test
  void slowReadsThatTimeOutDisableTheCacheOnceTheWindowHasPassed() {
    BlockKey key = BlockKey.of("f", 0);
    putWritten(key);
    io.clock = clock;
    io.slowMs = TOLERATED_MS / 2 + 1;
    io.readFault = FaultyChannelIo.Fault.SLOW_EIO;
    assertNull(cache.getBlock(key, DATA), "the first timeout opens the window");
    assertNull(cache.getBlock(key, DATA));
    assertFalse(cache.metrics().disabledByIoErrors(), "inside the window: " + (TOLERATED_MS / 2 + 1) + " ms");
    assertNull(cache.getBlock(key, DATA));
    assertTrue(cache.metrics().disabledByIoErrors(), "past the window");
    assertEquals(3, cache.metrics().ioErrorCount());
    assertEquals(CacheResult.DISABLED, put(BlockKey.of("f", 1)));
    new Figures("FileIoErrorToleranceTest", "slow-timeouts").put("toleratedMs", TOLERATED_MS)
        .put("stalledMsPerRead", io.slowMs).put("ioErrors", cache.metrics().ioErrorCount())
        .put("disabledAfterErrors", 3).put("exceptionsToCaller", 0).print();
  }

  /**
   * A get stalled in a slow read while other gets' errors disable the L2: when its read finally succeeds it returns
   * its block (verified) or a miss, never an exception, and its success does not bring the disabled L2 back.
   */
  @Test
  void aGetStalledWhileTheCacheDisablesItselfReturnsQuietlyAndDoesNotReenableIt() throws Exception {
    BlockKey key = BlockKey.of("f", 0);
    putWritten(key);
    CountDownLatch gate = new CountDownLatch(1);
    io.entered = new CountDownLatch(1);
    io.gate = gate;
    io.readFault = FaultyChannelIo.Fault.SLOW;
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread stalled = new Thread(() -> {
      try {
        ByteBuf block = cache.getBlock(key, DATA);
        if (block != null) {
          Blocks.verify(key, 4000, block);
          block.release();
        }
        outcome.set("returned");
      } catch (Throwable e) {
        outcome.set(e);
      }
    });
    stalled.start();
    io.entered.await();
    io.gate = null;
    io.readFault = FaultyChannelIo.Fault.EIO;
    assertNull(cache.getBlock(key, DATA));
    clock.addAndGet(TOLERATED_MS + 1);
    assertNull(cache.getBlock(key, DATA));
    assertTrue(cache.metrics().disabledByIoErrors());
    gate.countDown();
    stalled.join();
    assertEquals("returned", outcome.get());
    assertTrue(cache.metrics().disabledByIoErrors(), "a late success re-enabled a disabled L2");
    assertNull(cache.getBlock(key, DATA));
  }
}
