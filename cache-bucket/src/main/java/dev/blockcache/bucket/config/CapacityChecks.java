package dev.blockcache.bucket.config;

import static dev.blockcache.bucket.config.BucketCacheKeys.BUCKET_SIZES;
import static dev.blockcache.bucket.config.BucketCacheKeys.SIZE;

import dev.blockcache.bucket.alloc.ItemSizes;
import dev.blockcache.config.ConfigException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The checks of an L2's geometry, its item sizes ({@value BucketCacheKeys#BUCKET_SIZES}) and its capacity
 * ({@value BucketCacheKeys#SIZE}), which must hold at least one bucket of those sizes and no more than the index
 * addresses. Each failure names the key, the value and what is accepted.
 *
 * <p>Thread-safety: stateless.
 */
public final class CapacityChecks {
  /**
   * Largest L2 capacity in bytes: 8 TiB, what the L2 index addresses (35-bit slot offsets in 256-byte units, see
   * {@code dev.blockcache.bucket.index.IndexEntry}; a test there pins that the two agree).
   */
  public static final long MAX_CAPACITY = 8L << 40;
  /** {@link #MAX_CAPACITY} in MB, the unit of {@value BucketCacheKeys#SIZE}. */
  public static final long MAX_CAPACITY_MB = MAX_CAPACITY >> 20;

  private CapacityChecks() {
  }

  /**
   * A copy of {@code sizes} if they are valid item sizes ({@link ItemSizes#problem}).
   *
   * @throws ConfigException naming {@value BucketCacheKeys#BUCKET_SIZES} otherwise
   */
  static int[] bucketSizes(int[] sizes) {
    String problem = ItemSizes.problem(sizes);
    if (problem != null) {
      String text = sizes == null ? ""
          : Arrays.stream(sizes).mapToObj(String::valueOf).collect(Collectors.joining(","));
      throw new ConfigException(BUCKET_SIZES, text, "a comma-separated list of item sizes in bytes: " + problem);
    }
    return sizes.clone();
  }

  /**
   * {@code capacity} in bytes if it holds one bucket of {@code bucketSizes} (checked) and is at most
   * {@link #MAX_CAPACITY}.
   *
   * @throws ConfigException naming {@value BucketCacheKeys#SIZE}, quoting {@code asWritten}, otherwise
   */
  static long capacity(long capacity, int[] bucketSizes, String asWritten) {
    long bucketCapacity = ItemSizes.smallestBucket(bucketSizes);
    if (capacity < bucketCapacity) {
      throw new ConfigException(SIZE, asWritten,
          "at least one bucket (" + bucketCapacity + " bytes for these bucket sizes)");
    }
    if (capacity > MAX_CAPACITY) {
      throw new ConfigException(SIZE, asWritten, "at most " + MAX_CAPACITY + " bytes (" + MAX_CAPACITY_MB
          + " MB, the 8 TiB the L2 index addresses)");
    }
    return capacity;
  }
}
