package dev.blockcache.bucket.alloc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BucketSizesTest {
  @Test
  void fineListIsAValidDenseListForTheBlockSize() {
    int[] sizes = BucketSizes.fine(64 * 1024);
    assertEquals(36, sizes.length);
    assertEquals(4096, sizes[0]);
    assertEquals(128 * 1024, sizes[sizes.length - 1]);
    int bucket = 4 * sizes[sizes.length - 1];
    for (int i = 0; i < sizes.length; i++) {
      assertEquals(0, sizes[i] % 256, "multiple of 256: " + sizes[i]);
      if (i > 0) {
        assertTrue(sizes[i] > sizes[i - 1]);
        if (sizes[i] <= 64 * 1024) {
          // A block loses at most 15% to its item (1/8 grid, widened a little where snapping merges two sizes).
          assertTrue(sizes[i] - sizes[i - 1] <= 0.15 * sizes[i - 1], "gap below " + sizes[i]);
        }
      }
      // Snapped: the bucket tail is smaller than 256 bytes per item.
      assertTrue(bucket % sizes[i] < 256L * (bucket / sizes[i]), "slack of " + sizes[i]);
    }
    assertTrue(java.util.Arrays.binarySearch(sizes, 64 * 1024) >= 0, "a 64 KiB block fits exactly");
    new BucketAllocator(1 << 30, sizes); // accepted by the allocator
  }

  @Test
  void rawGridHasEightStepsPerOctave() {
    assertArrayEquals(new int[] {4096, 4608, 5120, 5632, 6144, 6656, 7168, 7680, 8192},
        BucketSizes.fine(4096, 8192, 8));
    assertArrayEquals(new int[] {256, 512}, BucketSizes.fine(1, 300, 8));
  }

  @Test
  void snappingKeepsItemsPerBucketAndTheLargestSize() {
    // bucket 16 KiB: 3 KiB fits 5 items -> 16384 / 5 = 3276.8 -> 3072 (unchanged); 2.5 KiB fits 6 -> 2730 -> 2560.
    int[] snapped = BucketSizes.snapToBuckets(new int[] {1280, 2304, 4096});
    // 1280: 12 items -> 1365 -> 1280; 2304: 7 items -> 2340 -> 2304.
    assertArrayEquals(new int[] {1280, 2304, 4096}, snapped);
    assertArrayEquals(new int[] {5376, 8192}, BucketSizes.snapToBuckets(new int[] {5120, 8192}));
  }

  @Test
  void rejectsNonPositiveSizes() {
    assertThrows(IllegalArgumentException.class, () -> BucketSizes.fine(0));
    assertThrows(IllegalArgumentException.class, () -> BucketSizes.fine(8192, 4096, 8));
    assertThrows(IllegalArgumentException.class, () -> BucketSizes.snapToBuckets(new int[] {100}));
  }
}
