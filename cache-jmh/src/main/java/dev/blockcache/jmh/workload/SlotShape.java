package dev.blockcache.jmh.workload;

import dev.blockcache.bucket.config.BucketCacheConfig;

/**
 * The shape of a bucket-cache slot with HBase's default bucket sizes, for baselines that mimic what a bucket cache
 * touches: a block and its header are stored in an item of the smallest default size that holds them, so slots follow
 * each other at that stride (5 KiB for a 4 KiB block and its header, 65 KiB for 64 KiB).
 *
 * <p>Thread-safety: stateless.
 */
public final class SlotShape {
  private SlotShape() {
  }

  /**
   * Bytes of the default-size item that holds {@code storedBytes} (header plus block).
   *
   * @throws IllegalArgumentException if no default bucket size is that large
   */
  public static int itemSize(int storedBytes) {
    for (int size : BucketCacheConfig.defaultBucketSizes()) {
      if (size >= storedBytes) {
        return size;
      }
    }
    throw new IllegalArgumentException("no default bucket size holds " + storedBytes + " bytes");
  }
}
