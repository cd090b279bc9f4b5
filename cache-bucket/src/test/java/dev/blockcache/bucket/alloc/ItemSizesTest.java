package dev.blockcache.bucket.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.config.BucketCacheConfig;
import org.junit.jupiter.api.Test;

class ItemSizesTest {
  private static final int K = 1024;
  private static final long LARGE = 1L << 40;

  @Test
  void sizesThatDivideFourTimesTheLargestKeepHBasesBucket() {
    assertEquals(4 * 64 * K, ItemSizes.bucketCapacity(new int[] {64 * K}, LARGE));
    assertEquals(16 * K, ItemSizes.bucketCapacity(new int[] {K, 2 * K, 4 * K}, LARGE));
  }

  @Test
  void aSizeThatWouldLeaveASixthOfEveryBucketGetsABucketItDivides() {
    int[] sizes = {65 * K, 97 * K};
    // HBase's 4 x 97 KiB holds 5 items of 65 KiB and leaves 63 KiB (16%) of each such bucket unused.
    assertEquals(63 * K, 4 * 97 * K % (65 * K));
    int bucket = ItemSizes.bucketCapacity(sizes, 32L << 20);
    assertEquals(6 * 65 * K, bucket);
    assertEquals(4, bucket / (97 * K));
    assertEquals(2 * K, bucket % (97 * K));
    // 32 MiB: 84 of HBase's buckets hold 420 items of 65 KiB; 84 of ours hold 504.
    assertEquals(84 * 6, (32L << 20) / bucket * (bucket / (65 * K)));
    assertEquals(84 * 5, (32L << 20) / (4 * 97 * K) * (4 * 97 * K / (65 * K)));
  }

  @Test
  void theCapacityLeftAtTheEndCountsAsWellAsTheTails() {
    int[] sizes = {5 * K, 16 * K};
    // 64 KiB buckets (HBase's) fill 192 KiB exactly, 12 items of 16 KiB or 36 of 5 KiB; 80 KiB buckets (no tail
    // for 5 KiB or 16 KiB) would fit only two, 10 items of 16 KiB: the smaller bucket wins. In 160 KiB both fit two,
    // and the larger holds more of each.
    assertEquals(64 * K, ItemSizes.bucketCapacity(sizes, 192 * K));
    assertEquals(80 * K, ItemSizes.bucketCapacity(sizes, 160 * K));
  }

  @Test
  void hbasesDefaultListKeepsHBasesBucketUnlessEveryClassGains() {
    int[] sizes = BucketCacheConfig.defaultBucketSizes();
    int hbase = 4 * sizes[sizes.length - 1];
    // 4 GiB: a larger bucket would leave the 257 KiB class less unused but give the 65 KiB class fewer items.
    assertEquals(hbase, ItemSizes.bucketCapacity(sizes, 4L << 30));
    assertEquals(7, hbase / (257 * K));
    assertEquals(8, 2056 * K / (257 * K));
    // 32 MiB: 15 buckets either way, so the 2,056 KiB bucket (no tail for 257 KiB) costs no class an item.
    assertEquals(2056 * K, ItemSizes.bucketCapacity(sizes, 32L << 20));
  }

  @Test
  void theBucketStaysWithinFourToFiveLargestItemsAndAligned() {
    int[][] lists = {BucketCacheConfig.defaultBucketSizes(), {1280, 8192}, {5120, 9216, 17408}, {256},
        {768, 1024, 99328}};
    for (int[] sizes : lists) {
      long largest = sizes[sizes.length - 1];
      for (long capacity : new long[] {4 * largest, 10 * largest + 3, 1L << 30, LARGE}) {
        int bucket = ItemSizes.bucketCapacity(sizes, capacity);
        assertTrue(bucket >= 4 * largest && bucket <= 5 * largest, "bucket " + bucket);
        assertEquals(0, bucket % BucketAllocator.ITEM_ALIGNMENT);
        assertTrue(ItemSizes.worstClassBytes(sizes, capacity, bucket)
            >= ItemSizes.worstClassBytes(sizes, capacity, 4 * largest));
        assertTrue(ItemSizes.noClassLoses(sizes, capacity, 4 * largest, bucket));
      }
    }
  }

  @Test
  void belowOneBucketTheSmallestBucketIsTheAnswer() {
    assertEquals(16 * K, ItemSizes.bucketCapacity(new int[] {K, 3 * K, 4 * K}, 15 * K));
  }

  @Test
  void theLargestSizeAcceptedStillGivesABucketThatFitsAnInt() {
    int largest = Integer.MAX_VALUE / 4 / BucketAllocator.ITEM_ALIGNMENT * BucketAllocator.ITEM_ALIGNMENT;
    int bucket = ItemSizes.bucketCapacity(new int[] {3 * BucketAllocator.ITEM_ALIGNMENT, largest}, LARGE);
    assertTrue(bucket >= 4L * largest && bucket > 0);
  }

}
