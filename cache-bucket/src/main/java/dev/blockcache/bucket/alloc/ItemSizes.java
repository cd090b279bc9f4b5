package dev.blockcache.bucket.alloc;

import static dev.blockcache.bucket.alloc.BucketAllocator.ITEM_ALIGNMENT;
import static dev.blockcache.bucket.alloc.BucketAllocator.MIN_ITEMS_OF_LARGEST_PER_BUCKET;

import java.util.Arrays;

/**
 * The rule a {@link BucketAllocator}'s item sizes follow, and the sizes it derives from them: stated once here and
 * shared by the allocator and the configuration's validation.
 *
 * <p>Thread-safety: stateless.
 */
public final class ItemSizes {
  /** Most largest items a bucket is sized for (see {@link #bucketCapacity}). */
  static final int MOST_LARGEST_ITEMS_PER_BUCKET = 5;

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
    if (itemSizes[itemSizes.length - 1] > Integer.MAX_VALUE / MIN_ITEMS_OF_LARGEST_PER_BUCKET) {
      return "a largest size of at most " + Integer.MAX_VALUE / MIN_ITEMS_OF_LARGEST_PER_BUCKET + " bytes";
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
   * The smallest bucket for these item sizes, {@value BucketAllocator#MIN_ITEMS_OF_LARGEST_PER_BUCKET} times the
   * largest (HBase's bucket): an allocator needs at least this many bytes.
   *
   * @throws IllegalArgumentException if the sizes are not valid
   */
  public static int smallestBucket(int[] itemSizes) {
    int[] sizes = checked(itemSizes);
    return Math.multiplyExact(sizes[sizes.length - 1], MIN_ITEMS_OF_LARGEST_PER_BUCKET);
  }

  /**
   * Bytes per bucket of an allocator of {@code capacity} bytes with these item sizes: HBase's bucket
   * ({@link #smallestBucket}, {@value BucketAllocator#MIN_ITEMS_OF_LARGEST_PER_BUCKET} times the largest item), unless
   * a bucket of up to {@value #MOST_LARGEST_ITEMS_PER_BUCKET} times the largest item gives every size class at least
   * as many items in {@code capacity} and the worst-served class more bytes of items (the most such; ties: the
   * smallest bucket). HBase's bucket when {@code capacity} is below it.
   *
   * <p>Two things are lost to items: a bucket of class {@code s} is cut into {@code bucket / s} items and its tail,
   * {@code bucket % s} bytes, holds nothing; and {@code capacity % bucket} bytes hold no bucket. HBase's bucket can
   * lose up to a sixth of every bucket a size takes (sizes 65 and 97 KiB: 5 items of 65 KiB, 63 KiB unused); a
   * bucket a little larger, a multiple of that size, loses next to nothing (399,360 bytes: 6 items of 65 KiB, or 4
   * of 97 KiB and 2 KiB unused), and in 32 MiB holds 504 items of 65 KiB where HBase's hold 420, and as many of
   * 97 KiB. Because no class may lose an item, a cache never holds fewer blocks of any size than HBase's geometry
   * gives; with HBase's default sizes at most capacities no bucket qualifies and the geometry is HBase's. The
   * candidates are HBase's bucket and every multiple of an item size up to the largest bucket: between two such
   * multiples the tails only grow. The upper bound keeps buckets (the unit that moves between classes) within a
   * quarter of HBase's size.
   *
   * @throws IllegalArgumentException if the sizes are not valid
   */
  public static int bucketCapacity(int[] itemSizes, long capacity) {
    int hbase = smallestBucket(itemSizes);
    long highest = Math.min((long) itemSizes[itemSizes.length - 1] * MOST_LARGEST_ITEMS_PER_BUCKET,
        Integer.MAX_VALUE);
    long best = hbase;
    long bestBytes = worstClassBytes(itemSizes, capacity, hbase);
    for (int size : itemSizes) {
      for (long candidate = ((long) hbase / size + 1) * size; candidate <= highest; candidate += size) {
        long bytes = worstClassBytes(itemSizes, capacity, candidate);
        boolean better = bytes > bestBytes || (bytes == bestBytes && candidate < best);
        if (better && noClassLoses(itemSizes, capacity, hbase, candidate)) {
          best = candidate;
          bestBytes = bytes;
        }
      }
    }
    return (int) best;
  }

  /**
   * Bytes of items the worst-served class of {@code sizes} would have in {@code capacity} bytes cut into buckets of
   * {@code bucket} bytes, if it had every bucket.
   */
  static long worstClassBytes(int[] sizes, long capacity, long bucket) {
    long worst = Long.MAX_VALUE;
    for (int size : sizes) {
      worst = Math.min(worst, items(capacity, bucket, size) * size);
    }
    return worst;
  }

  /** Whether every class of {@code sizes} would have at least as many items with {@code bucket} as with {@code base}. */
  static boolean noClassLoses(int[] sizes, long capacity, long base, long bucket) {
    for (int size : sizes) {
      if (items(capacity, bucket, size) < items(capacity, base, size)) {
        return false;
      }
    }
    return true;
  }

  /** Items of {@code size} in {@code capacity} bytes cut into buckets of {@code bucket} bytes, all of that class. */
  private static long items(long capacity, long bucket, int size) {
    return Math.max(0, capacity) / bucket * (bucket / size);
  }

  /** The bytes an allocator of {@code capacity} bytes with these item sizes can use: whole buckets only. */
  public static long usableCapacity(long capacity, int[] itemSizes) {
    int bucket = bucketCapacity(itemSizes, capacity);
    return Math.max(0, capacity) / bucket * bucket;
  }
}
