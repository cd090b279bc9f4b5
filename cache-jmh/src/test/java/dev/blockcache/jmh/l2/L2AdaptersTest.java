package dev.blockcache.jmh.l2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockKey;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.jmh.l1.Keys;
import dev.blockcache.jmh.l1.ThreeBytes;
import dev.blockcache.jmh.workload.KeySource;
import dev.blockcache.jmh.workload.SlotShape;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each L2 competitor's adapter does what the benchmarks rely on: inserts are accepted, {@code drain()} returns only
 * once every block is in a slot, every key hits with the block's length, {@code clear()} empties the cache and a
 * second burst fits again; the copy floor really copies.
 */
class L2AdaptersTest {
  private static final int KEYS = 256;
  private static final int BLOCK = 4096;
  /** HBase needs a bucket (2 MiB) per size class (14): 16 buckets, of which 256 blocks of 4 KiB fill less than one. */
  private static final long CAPACITY = 32L << 20;

  @ParameterizedTest
  @EnumSource(L2Competitor.class)
  void populateDrainGetClear(L2Competitor competitor) {
    Keys names = new Keys(BLOCK);
    for (KeySource keySource : List.of(KeySource.PER_LOOKUP, KeySource.PREBUILT)) {
      String cell = competitor + " with " + keySource + " keys";
      try (L2Adapter cache = competitor.build(new L2Setup(KEYS, BLOCK, CAPACITY, 1000, keySource))) {
        for (int round = 0; round < 2; round++) {
          for (int i = 0; i < KEYS; i++) {
            assertTrue(cache.insert(i), cell + " refused block " + i);
          }
          cache.drain();
          assertEquals(KEYS, cache.blockCount(), cell + ": blocks in slots after drain");
          for (int i = 0; i < KEYS; i++) {
            // The sum of the block's first, middle and last byte: every get reads the block itself, not its header.
            assertEquals(ThreeBytes.of(names.content(i)), cache.get(i), cell + ": three bytes of block " + i);
          }
          cache.clear();
          assertEquals(0, cache.blockCount(), cell + ": blocks after clear");
          assertThrows(IllegalStateException.class, () -> cache.get(0), cell + ": hit after clear");
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = L2Competitor.class,
      names = {"OURS_ZERO_COPY", "OURS_HAND_OVER", "OURS_INLINE", "HBASE_BUCKET", "COPY_FLOOR", "SLOT_FLOOR"})
  void preparedSourcesCanBeOfferedAgainAfterClear(L2Competitor competitor) {
    try (L2Adapter cache = competitor.build(new L2Setup(KEYS, BLOCK, CAPACITY, 1000))) {
      cache.prepareSources();
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < KEYS; i++) {
          assertTrue(cache.insert(i), competitor + " refused block " + i + " in round " + round);
        }
        cache.drain();
        assertEquals(KEYS, cache.blockCount());
        cache.clear();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = L2Competitor.class, names = {"COPY_FLOOR", "SLOT_FLOOR"})
  void theCopyFloorsHoldEachBlocksContentInItsSlot(L2Competitor competitor) {
    Keys names = new Keys(BLOCK);
    try (CopyFloorAdapter floor = (CopyFloorAdapter) competitor.build(new L2Setup(KEYS, BLOCK, CAPACITY, 0))) {
      floor.prepareSources();
      byte[] stale = new byte[BLOCK];
      Arrays.fill(stale, (byte) 0xA5); // what a byte the copy missed would still hold
      for (int i = 0; i < KEYS; i++) {
        floor.slot(i).setBytes(0, stale);
        floor.insert(i);
      }
      for (int i = 0; i < KEYS; i++) {
        assertEquals(Unpooled.wrappedBuffer(names.content(i)), floor.slot(i), competitor + " slot " + i);
      }
    }
  }

  @Test
  void theSlotReadFloorReadsTheKeyWordInTheSlotOnEveryGet() {
    try (SlotReadFloorAdapter floor =
        (SlotReadFloorAdapter) L2Competitor.SLOT_READ_FLOOR.build(new L2Setup(KEYS, BLOCK, CAPACITY, 0))) {
      for (int i = 0; i < KEYS; i++) {
        floor.insert(i);
      }
      assertEquals(5 << 10, floor.stride(), "a 4 KiB block and its header take a 5 KiB item");
      floor.overwriteKeyWord(7, 0);
      assertThrows(IllegalStateException.class, () -> floor.get(7), "a slot whose key word changed");
      Keys names = new Keys(BLOCK);
      assertEquals(ThreeBytes.of(names.content(6)), floor.get(6), "the neighbouring slot is untouched");
      assertEquals(ThreeBytes.of(names.content(8)), floor.get(8), "the neighbouring slot is untouched");
    }
  }

  @Test
  void theSlotFloorSpacesBlocksAsTheDefaultBucketItemThatHoldsBlockAndHeader() {
    Keys names = new Keys(BLOCK);
    int header = BlockHeader.headerLength(BlockKey.of(names.file(0), names.offset(0)));
    int item = SlotShape.itemSize(header + BLOCK);
    assertTrue(item >= header + BLOCK && item % 256 == 0, "item " + item);
    try (CopyFloorAdapter packed = CopyFloorAdapter.packed("COPY_FLOOR", new L2Setup(KEYS, BLOCK, CAPACITY, 0));
        CopyFloorAdapter shaped = CopyFloorAdapter.slotShaped("SLOT_FLOOR", new L2Setup(KEYS, BLOCK, CAPACITY, 0))) {
      assertEquals(BLOCK, packed.stride());
      assertEquals(item, shaped.stride());
      assertTrue(shaped.gap() >= header, "gap " + shaped.gap() + " < header " + header);
    }
  }

  @Test
  void slotShapeTakesTheSmallestDefaultSizeThatHoldsTheBytes() {
    assertEquals(5 * 1024, SlotShape.itemSize(4096 + 60));
    assertEquals(65 * 1024, SlotShape.itemSize(65536 + 60));
    assertEquals(5 * 1024, SlotShape.itemSize(5 * 1024));
    assertEquals(9 * 1024, SlotShape.itemSize(5 * 1024 + 1));
    assertThrows(IllegalArgumentException.class, () -> SlotShape.itemSize(513 * 1024 + 1));
  }
}
