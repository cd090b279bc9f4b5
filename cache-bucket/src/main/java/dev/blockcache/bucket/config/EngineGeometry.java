package dev.blockcache.bucket.config;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.alloc.ItemSizes;

/**
 * The shape of the engine and index a {@link BucketCache} is built over, from its config: the engine's capacity (whole
 * buckets), its segment size, and how many entries the index is laid out for. The cache's factories, the sizing report
 * and tests that build an engine by hand use the same figures.
 *
 * <p>Thread-safety: stateless.
 */
public final class EngineGeometry {
  /** Bytes per engine segment to aim for: whole buckets, few enough segments for a small table, ~16 MiB each. */
  private static final long TARGET_SEGMENT_BYTES = 16L << 20;

  private EngineGeometry() {
  }

  /** The bytes of the engine {@link BucketCache#create} makes for {@code config}: its capacity in whole buckets. */
  public static long capacity(BucketCacheConfig config) {
    return ItemSizes.usableCapacity(config.capacity(), config.bucketSizes());
  }

  /** The engine segment size {@link BucketCache#create} uses for {@code config}. */
  public static int segmentSize(BucketCacheConfig config) {
    return segmentSize(config.bucketCapacity());
  }

  /**
   * How many entries the index of a cache on an engine of {@code engineCapacity} bytes is laid out for: one per
   * 64 KiB, between 1,024 and 2^20 (it grows past that on demand).
   */
  public static int expectedIndexEntries(long engineCapacity) {
    return (int) Math.min(1 << 20, Math.max(1024, engineCapacity / (64 * 1024)));
  }

  /** The engine segment size for a bucket size: a whole number of buckets, at most 2 GiB. */
  public static int segmentSize(long bucketCapacity) {
    long buckets = Math.max(1, TARGET_SEGMENT_BYTES / bucketCapacity);
    return (int) Math.min(buckets * bucketCapacity, (Integer.MAX_VALUE / bucketCapacity) * bucketCapacity);
  }
}
