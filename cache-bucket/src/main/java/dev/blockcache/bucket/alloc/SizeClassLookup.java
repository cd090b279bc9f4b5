package dev.blockcache.bucket.alloc;

import static dev.blockcache.bucket.alloc.BucketAllocator.ITEM_ALIGNMENT;

import java.util.Arrays;

/**
 * The size class of a block length for a {@link BucketAllocator}'s item sizes: the smallest class whose item holds
 * it. A table by {@value BucketAllocator#ITEM_ALIGNMENT}-byte unit of length answers with one array read; a list whose
 * largest item has more than {@value #MAX_TABLE_UNITS} units (or more classes than a {@code short} counts) falls back
 * to a binary search of the sizes.
 *
 * <p>Thread-safety: immutable after construction.
 */
final class SizeClassLookup {
  /** Largest table: 64 Ki units (items up to 16 MiB), 128 KiB of heap. */
  private static final int MAX_TABLE_UNITS = 1 << 16;

  private final int[] sizes;
  /** Size class by unit (see {@link #table}), or null: binary search. */
  private final short[] classOfUnit;

  /** A lookup over {@code sizes}: valid item sizes ({@link ItemSizes#problem}), not copied and not to be changed. */
  SizeClassLookup(int[] sizes) {
    this.sizes = sizes;
    this.classOfUnit = sizes.length <= Short.MAX_VALUE ? table(sizes) : null;
  }

  /** The smallest class whose item size is at least {@code length}, for {@code 0 < length <= } the largest size. */
  int classOf(int length) {
    if (classOfUnit != null) {
      return classOfUnit[(length - 1) / ITEM_ALIGNMENT];
    }
    int i = Arrays.binarySearch(sizes, length);
    return i >= 0 ? i : -i - 1;
  }

  /**
   * The size class of every length, by unit: entry {@code u} is the class of lengths {@code u * 256 + 1 ..
   * (u + 1) * 256} (item sizes are multiples of 256, so one class fits a whole unit). Null when the largest item has
   * more than {@value #MAX_TABLE_UNITS} units.
   */
  private static short[] table(int[] sizes) {
    int units = sizes[sizes.length - 1] / ITEM_ALIGNMENT;
    if (units > MAX_TABLE_UNITS) {
      return null;
    }
    short[] table = new short[units];
    int c = 0;
    for (int u = 0; u < units; u++) {
      while (sizes[c] < (u + 1) * ITEM_ALIGNMENT) {
        c++;
      }
      table[u] = (short) c;
    }
    return table;
  }
}
