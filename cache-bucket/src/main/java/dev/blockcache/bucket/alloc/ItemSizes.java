package dev.blockcache.bucket.alloc;

import static dev.blockcache.bucket.alloc.BucketAllocator.ITEMS_OF_LARGEST_PER_BUCKET;
import static dev.blockcache.bucket.alloc.BucketAllocator.ITEM_ALIGNMENT;

import java.util.Arrays;

/**
 * The rule a {@link BucketAllocator}'s item sizes follow, and the sizes it derives from them: stated once here and
 * shared by the allocator and the configuration's validation.
 *
 * <p>Thread-safety: stateless.
 */
public final class ItemSizes {
  private ItemSizes() {}

  /**
   * What is wrong with {@code itemSizes} as an allocator's item sizes, phrased as what is accepted instead; null when
   * they are valid.
   */
  public static String problem(int[] itemSizes) {
    if (itemSizes == null || itemSizes.length == 0) {
      return "at least one size";
    }
    for (int i = 0; i < itemSizes.length; i++) {
      if (itemSizes[i] <= 0 || itemSizes[i] % ITEM_ALIGNMENT != 0) {
        return "positive multiples of " + ITEM_ALIGNMENT + " (" + itemSizes[i] + " is not)";
      }
      if (i > 0 && itemSizes[i] <= itemSizes[i - 1]) {
        return "sizes in strictly ascending order";
      }
    }
    if (itemSizes[itemSizes.length - 1] > Integer.MAX_VALUE / ITEMS_OF_LARGEST_PER_BUCKET) {
      return "a largest size of at most " + Integer.MAX_VALUE / ITEMS_OF_LARGEST_PER_BUCKET + " bytes";
    }
    return null;
  }

  /**
   * A copy of {@code itemSizes}.
   *
   * @throws IllegalArgumentException if they are not valid ({@link #problem})
   */
  static int[] checked(int[] itemSizes) {
    String problem = problem(itemSizes);
    if (problem != null) {
      throw new IllegalArgumentException("item sizes " + Arrays.toString(itemSizes) + ": need " + problem);
    }
    return itemSizes.clone();
  }

  /**
   * Bytes per bucket of an allocator with these item sizes: {@value BucketAllocator#ITEMS_OF_LARGEST_PER_BUCKET} times
   * the largest.
   *
   * @throws IllegalArgumentException if the sizes are not valid
   */
  public static int bucketCapacity(int[] itemSizes) {
    int[] sizes = checked(itemSizes);
    return Math.multiplyExact(sizes[sizes.length - 1], ITEMS_OF_LARGEST_PER_BUCKET);
  }

  /** The bytes an allocator of {@code capacity} bytes with these item sizes can use: whole buckets only. */
  public static long usableCapacity(long capacity, int[] itemSizes) {
    int bucket = bucketCapacity(itemSizes);
    return Math.max(0, capacity) / bucket * bucket;
  }
}
