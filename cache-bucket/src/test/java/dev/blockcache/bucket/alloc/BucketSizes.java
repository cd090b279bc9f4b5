package dev.blockcache.bucket.alloc;

import java.util.Arrays;

/**
 * Item-size lists for {@link BucketAllocator}.
 *
 * <p>Why a denser list than HBase's: a block goes into the smallest item that holds it, so two things are lost — the
 * gap between the block and its item size, and the slack at the end of a bucket that the item size does not divide.
 * HBase's default list ({@code 5, 9, 17, 33, 41, ... 513 KiB}) has gaps up to 16 KiB (a 34 KiB block sits in a 41 KiB
 * item); with block sizes spread evenly over 4–64 KiB it keeps less than the 90% utilisation target in block bytes
 * once full. {@link #fine(int)} meets the target ({@code UtilisationTest} pins both) by three choices:
 * <ol>
 *   <li>Gaps of 1/8 of the power of two below the size up to the largest block, so a block loses at most about 1/8
 *       of its item to the gap (a little more where snapping merges two sizes; {@code BucketSizesTest} pins the
 *       bound).
 *   <li>A few coarser classes above the largest block, up to twice its size, so that the bucket
 *       ({@code 4 × largest item}) holds eight of the largest blocks: the slack of a bucket is then small relative
 *       to it, and oversized blocks still have a home.
 *   <li>Every size is {@linkplain #snapToBuckets raised} to the largest multiple of 256 that still fits the same
 *       number of items in a bucket: the slack a size would leave becomes room for longer blocks.
 * </ol>
 * The allocator moves emptied buckets between classes, so three dozen classes do not strand space.
 *
 * <p>Thread-safety: stateless; every method returns a new array.
 */
public final class BucketSizes {
  /** Classes per power of two up to the largest block: gaps of at most 1/8 of the lower power of two. */
  public static final int DEFAULT_STEPS_PER_OCTAVE = 8;
  /** Octaves below the largest block that {@link #fine(int)} covers: 64 KiB blocks get classes from 4 KiB. */
  public static final int DEFAULT_OCTAVES = 4;
  /** Classes per octave above the largest block, for the occasional oversized block. */
  public static final int OVERSIZE_STEPS_PER_OCTAVE = 4;

  private BucketSizes() {}

  /**
   * A dense list for blocks of up to {@code maxBlockSize} bytes: classes from the power of two
   * {@value #DEFAULT_OCTAVES} octaves below it (at least 256 bytes) up to {@code maxBlockSize} rounded up to 256,
   * {@value #DEFAULT_STEPS_PER_OCTAVE} per octave, then {@value #OVERSIZE_STEPS_PER_OCTAVE} per octave up to twice
   * that, plus one size per item count per bucket between half the largest block and the largest block, all
   * {@linkplain #snapToBuckets snapped}: 36 classes from 4 KiB to 128 KiB for 64 KiB blocks. Blocks smaller than
   * the first class go into it.
   */
  public static int[] fine(int maxBlockSize) {
    int max = roundUp(checkPositive(maxBlockSize));
    int min = Math.max(BucketAllocator.ITEM_ALIGNMENT, Integer.highestOneBit(max) >>> DEFAULT_OCTAVES);
    int largest = roundUp(Math.multiplyExact(max, 2));
    int[] low = fine(min, max, DEFAULT_STEPS_PER_OCTAVE);
    int[] high = fine(max, largest, OVERSIZE_STEPS_PER_OCTAVE);
    // In the top octave, every item count per bucket gets its own size: there the divisors of the bucket are
    // farther apart than the grid, and a grid point alone can skip one (37376 to 43520 skips 13 items of 40192).
    long bucket = (long) largest * BucketAllocator.MIN_ITEMS_OF_LARGEST_PER_BUCKET;
    long fewest = bucket / max;
    long most = Math.min(bucket / Math.max(min, max / 2), fewest * 2);
    int[] all = Arrays.copyOf(low, low.length + high.length + (int) (most - fewest + 1));
    System.arraycopy(high, 0, all, low.length, high.length);
    int n = low.length + high.length;
    for (long items = fewest; items <= most; items++) {
      all[n++] = (int) (bucket / items / BucketAllocator.ITEM_ALIGNMENT * BucketAllocator.ITEM_ALIGNMENT);
    }
    return snapToBuckets(all);
  }

  /**
   * Raises every size to the largest multiple of 256 that fits as many items in a bucket
   * ({@code 4 × the largest size}) as the size did, then drops duplicates. No block moves to a larger item, the
   * largest size is unchanged, and the bucket tail that the original size left unused shrinks to under
   * {@code 256 × items}.
   */
  public static int[] snapToBuckets(int[] itemSizes) {
    int[] sizes = itemSizes.clone();
    Arrays.sort(sizes);
    long bucket = (long) sizes[sizes.length - 1] * BucketAllocator.MIN_ITEMS_OF_LARGEST_PER_BUCKET;
    int a = BucketAllocator.ITEM_ALIGNMENT;
    int n = 0;
    for (int size : sizes) {
      if (size <= 0 || size % a != 0) {
        throw new IllegalArgumentException("item size " + size + " is not a positive multiple of " + a);
      }
      long items = bucket / size;
      int snapped = (int) (bucket / items / a * a);
      if (n == 0 || sizes[n - 1] < snapped) {
        sizes[n++] = snapped;
      }
    }
    return Arrays.copyOf(sizes, n);
  }

  /**
   * Item sizes from {@code minBlockSize} to {@code maxBlockSize} (both rounded up to a multiple of 256 and both in
   * the list), and in between, inside each octave {@code [2^k, 2^(k+1)]}, every multiple of
   * {@code max(256, 2^k / stepsPerOctave)}.
   */
  public static int[] fine(int minBlockSize, int maxBlockSize, int stepsPerOctave) {
    int min = roundUp(checkPositive(minBlockSize));
    int max = roundUp(checkPositive(maxBlockSize));
    if (min > max || stepsPerOctave < 1) {
      throw new IllegalArgumentException("fine sizes: min " + minBlockSize + ", max " + maxBlockSize
          + ", steps per octave " + stepsPerOctave + " (need 0 < min <= max, steps >= 1)");
    }
    int[] out = new int[64];
    int n = 0;
    int size = min;
    while (size < max) {
      if (n == out.length) {
        out = Arrays.copyOf(out, n * 2);
      }
      out[n++] = size;
      int step = Math.max(BucketAllocator.ITEM_ALIGNMENT, Integer.highestOneBit(size) / stepsPerOctave);
      // Next multiple of step above size (stays on the octave's grid even when min is not on it).
      size = roundUp(((size / step) + 1) * step);
    }
    int[] sizes = Arrays.copyOf(out, n + 1);
    sizes[n] = max;
    return sizes;
  }

  /** {@code size} rounded up to a multiple of {@value BucketAllocator#ITEM_ALIGNMENT}. */
  public static int roundUp(int size) {
    int a = BucketAllocator.ITEM_ALIGNMENT;
    return Math.addExact(size, a - 1) / a * a;
  }

  private static int checkPositive(int size) {
    if (size <= 0) {
      throw new IllegalArgumentException("block size " + size + " is not positive");
    }
    return size;
  }
}
