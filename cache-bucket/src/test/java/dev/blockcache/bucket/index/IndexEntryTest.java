package dev.blockcache.bucket.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CachePriority;
import org.junit.jupiter.api.Test;

class IndexEntryTest {
  @Test
  void everyFieldRoundTripsAtItsExtremes() {
    long[] offsets = {0, 256, 4096, IndexEntry.MAX_OFFSET};
    int[] lengths = {0, 1, 65_536, IndexEntry.MAX_LENGTH};
    for (long offset : offsets) {
      for (int length : lengths) {
        for (CachePriority p : CachePriority.values()) {
          for (BlockCategory c : BlockCategory.values()) {
            long e = IndexEntry.pack(offset, length, p, c);
            assertTrue(e >= 0, "never negative");
            assertEquals(offset, IndexEntry.offset(e));
            assertEquals(length, IndexEntry.length(e));
            assertEquals(p, IndexEntry.priority(e));
            assertEquals(c, IndexEntry.category(e));
          }
        }
      }
    }
  }

  @Test
  void offsetsReachFourTebibytes() {
    assertEquals((1L << 43) - 256, IndexEntry.MAX_OFFSET);
    assertEquals((1 << 23) - 1, IndexEntry.MAX_LENGTH, "8 MiB - 1: bits of the length went to the window and offset");
  }

  @Test
  void badOffsetsAndLengthsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> IndexEntry.pack(100, 1, CachePriority.SINGLE, BlockCategory.DATA));
    assertThrows(IllegalArgumentException.class, () -> IndexEntry.pack(-256, 1, CachePriority.SINGLE, BlockCategory.DATA));
    assertThrows(IllegalArgumentException.class,
        () -> IndexEntry.pack(IndexEntry.MAX_OFFSET + 256, 1, CachePriority.SINGLE, BlockCategory.DATA));
    assertThrows(IllegalArgumentException.class, () -> IndexEntry.pack(0, -1, CachePriority.SINGLE, BlockCategory.DATA));
    assertThrows(IllegalArgumentException.class,
        () -> IndexEntry.pack(0, IndexEntry.MAX_LENGTH + 1, CachePriority.SINGLE, BlockCategory.DATA));
  }

  @Test
  void withPriorityChangesOnlyThePriority() {
    long e = IndexEntry.pack(IndexEntry.MAX_OFFSET, IndexEntry.MAX_LENGTH, CachePriority.SINGLE, BlockCategory.META);
    long m = IndexEntry.withPriority(e, CachePriority.MEMORY);
    assertEquals(CachePriority.MEMORY, IndexEntry.priority(m));
    assertEquals(IndexEntry.MAX_OFFSET, IndexEntry.offset(m));
    assertEquals(IndexEntry.MAX_LENGTH, IndexEntry.length(m));
    assertEquals(BlockCategory.META, IndexEntry.category(m));
    assertEquals(e, IndexEntry.withPriority(m, CachePriority.SINGLE));
    assertEquals("ABSENT", IndexEntry.toString(IndexEntry.ABSENT));
    assertEquals("[offset=512, length=7, MULTI, INDEX]",
        IndexEntry.toString(IndexEntry.pack(512, 7, CachePriority.MULTI, BlockCategory.INDEX)));
  }
}
