package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.config.EngineGeometry;
import dev.blockcache.bucket.engine.CacheFileHeader;
import dev.blockcache.bucket.engine.FileEngineOptions;
import dev.blockcache.bucket.engine.MmapIoEngine;
import dev.blockcache.testing.Blocks;
import dev.blockcache.testing.Figures;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real SIGBUS under an {@code mmap:} L2: the cache file is truncated under the mapping by someone else, so every
 * page of the slots is beyond the end of the file and every access to it faults, as a hole does on a full file
 * system. Forbids: the fault (the JVM's {@link InternalError}) reaching a caller of {@code getBlock} or
 * {@code cacheBlock}, killing a writer thread (then the queues fill and every insert fails for good), going
 * uncounted, or leaving the L2 in service past {@value BucketCacheKeys#IO_ERRORS_TOLERATED_DURATION}.
 */
class MmapFaultTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);
  private static final long TOLERATED_MS = 60_000;

  @TempDir
  Path dir;

  private final AtomicLong clock = new AtomicLong(1_000_000);
  private Path file;
  private BucketCache cache;

  @BeforeEach
  void open() throws IOException {
    file = dir.resolve("cache.mmap");
    BucketCacheConfig config = BucketCaches.config("mmap:" + file, 16L << 20).ioErrorsToleratedMs(TOLERATED_MS)
        .build();
    MmapIoEngine engine = MmapIoEngine.open(config.ioEngine(), EngineGeometry.capacity(config),
        EngineGeometry.segmentSize(config), FileEngineOptions.DEFAULTS);
    cache = new BucketCache(config, engine, clock::get);
  }

  @AfterEach
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

  /** Cuts the file back to its header: every slot page is now past its end. */
  private void truncateUnderTheMapping() throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(CacheFileHeader.LENGTH);
    }
  }

  @Test
  void theEngineTurnsAFaultIntoACountedIoException() throws IOException {
    try (MmapIoEngine engine = MmapIoEngine.open("mmap:" + dir.resolve("engine.mmap"), 1 << 20, 1 << 16,
        FileEngineOptions.DEFAULTS)) {
      try (FileChannel channel = FileChannel.open(engine.path(), StandardOpenOption.WRITE)) {
        channel.truncate(CacheFileHeader.LENGTH);
      }
      assertThrows(IOException.class, () -> engine.read(4096, 100));
      assertThrows(IOException.class, () -> engine.write(8192, Unpooled.wrappedBuffer(new byte[100])));
      assertEquals(2, engine.stats().errors());
    }
  }

  @Test
  void faultsAreMissesAndDroppedWritesUntilTheWindowPassesThenTheCacheDisablesItself() throws IOException {
    BlockKey written = BlockKey.of("f", 0);
    assertEquals(CacheResult.CACHED, put(written));
    BucketCaches.drain(cache);
    cache.start();
    truncateUnderTheMapping();

    assertNull(cache.getBlock(written, DATA), "a faulting read is a miss");
    assertEquals(1, cache.metrics().ioErrorCount());

    // The writer threads meet the fault too, and live on: the next blocks are taken and written (and fail) in turn.
    for (int i = 1; i <= 3; i++) {
      assertEquals(CacheResult.CACHED, put(BlockKey.of("f", i)));
      assertTimeoutPreemptively(Duration.ofSeconds(30), () -> BucketCaches.drain(cache), "a writer thread died");
    }
    assertEquals(4, cache.metrics().ioErrorCount());
    assertFalse(cache.metrics().disabledByIoErrors(), "disabled inside the tolerated window");

    clock.addAndGet(TOLERATED_MS + 1);
    assertNull(cache.getBlock(written, DATA));
    assertTrue(cache.metrics().disabledByIoErrors());
    assertEquals(CacheResult.DISABLED, put(BlockKey.of("f", 9)));
    new Figures("MmapFaultTest", "truncated-under-mapping").put("toleratedMs", TOLERATED_MS)
        .put("ioErrors", cache.metrics().ioErrorCount()).put("exceptionsToCaller", 0)
        .put("writerThreadsLost", 0).print();
  }
}
