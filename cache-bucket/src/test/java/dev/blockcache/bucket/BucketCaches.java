package dev.blockcache.bucket;

import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.api.BlockKey;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Small bucket caches for tests: item sizes up to 256 KiB, so that a few MiB hold dozens of buckets. */
final class BucketCaches {
  /** Item sizes for tests: HBase's shape (a power of two plus 1 KiB) scaled down, largest 256 KiB. */
  static final int[] SIZES = {5 << 10, 9 << 10, 17 << 10, 33 << 10, 65 << 10, 129 << 10, 256 << 10};

  private BucketCaches() {}

  static BucketCacheConfig.Builder config(String engine, long capacity) {
    return BucketCacheConfig.builder(engine, capacity).bucketSizes(SIZES);
  }

  static BucketCache create(BucketCacheConfig config) {
    try {
      return BucketCache.create(config);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The largest block of {@code file} the test caches take: the largest item less the header. */
  static int largestBlock(String file) {
    return SIZES[SIZES.length - 1] - BlockHeader.headerLength(BlockKey.of(file, 0));
  }
}
