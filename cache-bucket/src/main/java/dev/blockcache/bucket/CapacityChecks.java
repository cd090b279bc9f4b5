package dev.blockcache.bucket;

import static dev.blockcache.bucket.BucketCacheConfig.BUCKET_SIZES;
import static dev.blockcache.bucket.BucketCacheConfig.MAX_CAPACITY;
import static dev.blockcache.bucket.BucketCacheConfig.MAX_CAPACITY_MB;
import static dev.blockcache.bucket.BucketCacheConfig.SIZE;

import dev.blockcache.bucket.alloc.ItemSizes;
import dev.blockcache.config.ConfigException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The checks of an L2's geometry, its item sizes ({@value BucketCacheConfig#BUCKET_SIZES}) and its capacity
 * ({@value BucketCacheConfig#SIZE}), which must hold at least one bucket of those sizes and no more than the index
 * addresses. Each failure names the key, the value and what is accepted.
 *
 * <p>Thread-safety: stateless.
 */
final class CapacityChecks {
  private CapacityChecks() {
  }

  /**
   * A copy of {@code sizes} if they are valid item sizes ({@link ItemSizes#problem}).
   *
   * @throws ConfigException naming {@value BucketCacheConfig#BUCKET_SIZES} otherwise
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
   * {@link BucketCacheConfig#MAX_CAPACITY}.
   *
   * @throws ConfigException naming {@value BucketCacheConfig#SIZE} otherwise
   */
  static long capacity(long capacity, int[] bucketSizes) {
    long bucketCapacity = ItemSizes.smallestBucket(bucketSizes);
    if (capacity < bucketCapacity) {
      throw new ConfigException(SIZE, capacity + " bytes",
          "at least one bucket (" + bucketCapacity + " bytes for these bucket sizes)");
    }
    if (capacity > MAX_CAPACITY) {
      throw new ConfigException(SIZE, capacity + " bytes", "at most " + MAX_CAPACITY + " bytes (" + MAX_CAPACITY_MB
          + " MB, the 4 TiB the L2 index addresses)");
    }
    return capacity;
  }
}
