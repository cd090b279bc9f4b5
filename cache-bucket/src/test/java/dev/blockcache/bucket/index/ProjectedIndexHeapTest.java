package dev.blockcache.bucket.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link IndexHeap#projectedHeapBytes} against the {@link BlockIndex#heapBytes()} of a real index filled with as many
 * keys of many files: the projection the sizing report uses must track the index's own growth.
 *
 * <p>Not asserted: with hundreds to thousands of blocks per file the files' clumping into file groups moves the real
 * figure further from the projection, because a file's blocks share its group's 8 segments. The projection is for
 * evenly spread keys, and this test pins its tolerance for them.
 */
class ProjectedIndexHeapTest {

  @ParameterizedTest(name = "{1} entries of {2} per file in an index laid out for {0}")
  @CsvSource({
      "65535, 63364, 1",      // the published stack: 4096 MB offheap, 64 KiB blocks (~124 entries per segment)
      "65535, 63364, 10",
      "1048576, 300000, 1",   // a large, part-filled index: 32,768 segments of ~9 entries, where the spread matters
      "1048576, 300000, 10",
      "1048576, 2000000, 1",  // filled past its layout
      "1024, 5000, 10",       // a small index filled past its layout
      "16384, 0, 1"})         // empty: the fixed overhead alone
  void theProjectionIsWithinThreePercentOfARealIndexForKeysOfManyFiles(int expected, int entries, int blocksPerFile) {
    BlockIndex index = new BlockIndex(expected);
    int files = Math.max(1, entries / blocksPerFile);
    for (int i = 0; i < entries; i++) {
      BlockKey key = BlockKey.of("region/cf/" + Integer.toHexString(i % files * 0x9E3779B1) + "-file", i * 65_536L);
      long e = IndexEntry.pack((long) i * 66_560, 65_592, CachePriority.SINGLE, BlockCategory.DATA);
      index.putIfAbsent(key, e);
    }
    long real = index.heapBytes();
    long projected = IndexHeap.projectedHeapBytes(expected, index.size());
    assertEquals((double) real, (double) projected, real * 0.03, "real " + real + " B, projected " + projected + " B");
  }

  @Test
  void negativeArgumentsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> IndexHeap.projectedHeapBytes(-1, 10));
    assertThrows(IllegalArgumentException.class, () -> IndexHeap.projectedHeapBytes(10, -1));
  }
}
