package dev.blockcache.bucket;

import dev.blockcache.api.BlockKey;
import dev.blockcache.bucket.alloc.ItemSizes;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.EngineGeometry;
import dev.blockcache.bucket.engine.ChannelIo;
import dev.blockcache.bucket.engine.FileEngineOptions;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.engine.IoEngineRegistry;
import dev.blockcache.bucket.engine.PageCache;
import dev.blockcache.bucket.format.BlockHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/** Small bucket caches for tests: item sizes up to 256 KiB, so that a few MiB hold dozens of buckets. */
public final class BucketCaches {
  /** Item sizes for tests: HBase's shape (a power of two plus 1 KiB) scaled down, largest 256 KiB. */
  static final int[] SIZES = {5 << 10, 9 << 10, 17 << 10, 33 << 10, 65 << 10, 129 << 10, 256 << 10};

  private BucketCaches() {}

  public static BucketCacheConfig.Builder config(String engine, long capacity) {
    return BucketCacheConfig.builder(engine, capacity).bucketSizes(SIZES);
  }

  /**
   * A cache for {@code config} on the engine the public factory would make, not started: no writer thread runs until
   * the test calls {@code start()}, and {@link #drain} writes the queued blocks on the test's thread meanwhile.
   */
  public static BucketCache create(BucketCacheConfig config) {
    try {
      IoEngine engine = IoEngineRegistry.withBuiltins(
          new FileEngineOptions(PageCache.directIo(config.fileDirectIo()), ChannelIo.PLAIN))
          .create(config.ioEngine(), EngineGeometry.capacity(config), EngineGeometry.segmentSize(config));
      return new BucketCache(config, engine, System::currentTimeMillis);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A cache for {@code config} from the public factory: started, as a user gets it. */
  static BucketCache started(BucketCacheConfig config) {
    try {
      return BucketCache.create(config);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until {@code cache} wrote every block it accepted; fails the test after 30 s. */
  public static void drain(BucketCache cache) {
    try {
      if (!cache.awaitWritten(Duration.ofSeconds(30))) {
        throw new AssertionError("blocks still waiting for their writer after 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for the writers", e);
    }
  }

  /** The largest block of {@code file} the test caches take: the largest item less the header. */
  /** The capacity a cache of {@link #config} reports for {@code capacity}: whole buckets of its item sizes. */
  static long usableCapacity(long capacity) {
    return ItemSizes.usableCapacity(capacity, SIZES);
  }

  static int largestBlock(String file) {
    return SIZES[SIZES.length - 1] - BlockHeader.headerLength(BlockKey.of(file, 0));
  }
}
