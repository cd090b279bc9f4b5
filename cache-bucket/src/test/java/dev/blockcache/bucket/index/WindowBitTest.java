package dev.blockcache.bucket.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import org.junit.jupiter.api.Test;

/**
 * Pins the admission-window bit of an index entry: where it sits, that packing and the index keep it and count it,
 * that the window's hand chooses only entries that have it, and the 24-bit length field it was taken from.
 */
class WindowBitTest {
  private static long entry(long id, int length, CachePriority p) {
    return IndexEntry.pack(id * IndexEntry.OFFSET_UNIT, length, p, BlockCategory.INDEX);
  }

  @Test
  void theBitChangesNoOtherField() {
    long plain = IndexEntry.pack(IndexEntry.MAX_OFFSET, IndexEntry.MAX_LENGTH, CachePriority.MEMORY,
        BlockCategory.META);
    assertFalse(IndexEntry.inWindow(plain), "pack puts an entry outside the window");
    long in = IndexEntry.intoWindow(plain);
    assertTrue(IndexEntry.inWindow(in));
    assertTrue(in >= 0, "bit 63 stays free for the reference bit");
    assertEquals(IndexEntry.MAX_OFFSET, IndexEntry.offset(in));
    assertEquals(IndexEntry.MAX_LENGTH, IndexEntry.length(in));
    assertEquals(CachePriority.MEMORY, IndexEntry.priority(in));
    assertEquals(BlockCategory.META, IndexEntry.category(in));
    assertEquals(plain, IndexEntry.outOfWindow(in));
    assertEquals(in, IndexEntry.intoWindow(in), "idempotent");
    assertEquals(CachePriority.MULTI, IndexEntry.priority(IndexEntry.withPriority(in, CachePriority.MULTI)));
    assertTrue(IndexEntry.inWindow(IndexEntry.withPriority(in, CachePriority.MULTI)));
    assertTrue(IndexEntry.toString(in).contains("window"), IndexEntry.toString(in));
  }

  @Test
  void theLengthFieldHoldsUpToEightMebibytesLessOne() {
    assertEquals(23, IndexEntry.LENGTH_BITS);
    assertEquals((1 << 23) - 1, IndexEntry.MAX_LENGTH);
    assertEquals(63, IndexEntry.OFFSET_SHIFT + IndexEntry.OFFSET_BITS, "the fields fill bits 0..62");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> IndexEntry.pack(0, 1 << 23, CachePriority.SINGLE, BlockCategory.DATA));
    assertTrue(e.getMessage().contains("8388607") && e.getMessage().contains("8388608"), e.getMessage());
  }

  @Test
  void theIndexKeepsAndCountsTheBitThroughPromotionAndRemoval() {
    BlockIndex index = new BlockIndex(1000, new FrequencySketch(1000));
    BlockKey a = BlockKey.of("f", 0);
    BlockKey b = BlockKey.of("f", 1);
    BlockKey c = BlockKey.of("g", 0);
    long ea = IndexEntry.intoWindow(entry(1, 100, CachePriority.SINGLE));
    index.putIfAbsent(a, ea);
    index.putIfAbsent(b, IndexEntry.intoWindow(entry(2, 100, CachePriority.SINGLE)));
    index.putIfAbsent(c, entry(3, 100, CachePriority.SINGLE));
    assertEquals(2, index.windowSize());

    long promoted = index.get(a); // a repeat access: SINGLE becomes MULTI
    assertEquals(CachePriority.MULTI, IndexEntry.priority(promoted));
    assertTrue(IndexEntry.inWindow(promoted), "promotion keeps the window bit");
    assertEquals(2, index.windowSize());

    assertTrue(index.remove(b, index.peek(b)));
    assertEquals(1, index.windowSize(), "a removed window entry leaves the count");
    assertEquals(1, index.removeFile("f", e -> { }));
    assertEquals(0, index.windowSize());
    assertEquals(1, index.size());
  }

  @Test
  void theWindowHandChoosesOnlyWindowEntriesAndLeavingClearsTheBitOnly() {
    BlockIndex index = new BlockIndex(1000, new FrequencySketch(1000));
    for (int i = 0; i < 100; i++) {
      long e = entry(i, 100, i % 2 == 0 ? CachePriority.SINGLE : CachePriority.MULTI);
      index.putIfAbsent(BlockKey.of("f", i), i % 10 == 0 ? IndexEntry.intoWindow(e) : e);
    }
    assertEquals(10, index.windowSize());
    Victim leaver = new Victim();
    for (int left = 0; left < 10; left++) {
      assertTrue(index.chooseWindowLeaver((fp, e) -> true, leaver), "leaver " + left);
      assertTrue(IndexEntry.inWindow(leaver.entry()), IndexEntry.toString(leaver.entry()));
      assertTrue(index.leaveWindow(leaver));
      assertFalse(index.leaveWindow(leaver), "left already: the entry is no longer as chosen");
    }
    assertEquals(0, index.windowSize());
    assertFalse(index.chooseWindowLeaver((fp, e) -> true, leaver), "no window entry is left");
    assertEquals(100, index.size(), "leaving the window removes nothing");
    for (int i = 0; i < 100; i += 10) {
      long e = index.peek(BlockKey.of("f", i));
      assertEquals(entry(i, 100, CachePriority.SINGLE), e, "only the bit changed for block " + i);
    }
  }

  @Test
  void aNewWindowEntryAndAReadOneGetASecondChanceBeforeTheyLeave() {
    BlockIndex index = new BlockIndex(100, new FrequencySketch(100));
    for (int i = 0; i < 20; i++) {
      index.putIfAbsent(BlockKey.of("f", i), IndexEntry.intoWindow(entry(i, 100, CachePriority.MULTI)));
    }
    Victim leaver = new Victim();
    // Every entry starts referenced: the hand clears all twenty bits before it lets one out.
    assertTrue(index.chooseWindowLeaver((fp, e) -> true, leaver));
    assertTrue(index.leaveWindow(leaver));
    int first = (int) (IndexEntry.offset(leaver.entry()) / IndexEntry.OFFSET_UNIT);
    int unread = first == 7 ? 8 : 7;
    for (int i = 0; i < 20; i++) {
      if (i != unread && i != first) {
        index.get(BlockKey.of("f", i)); // sets its reference bit again
      }
    }
    assertTrue(index.chooseWindowLeaver((fp, e) -> true, leaver));
    assertEquals(index.peek(BlockKey.of("f", unread)), leaver.entry(), "the one unread window entry leaves next");
  }

  @Test
  void aWindowEntryIsInsertedReferenced() {
    BlockIndex index = new BlockIndex(100, new FrequencySketch(100));
    index.putIfAbsent(BlockKey.of("f", 0), IndexEntry.intoWindow(entry(0, 100, CachePriority.SINGLE)));
    index.putIfAbsent(BlockKey.of("f", 1), entry(1, 100, CachePriority.SINGLE));
    Victim victim = new Victim();
    // The hand's first visit clears the window entry's bit and passes it; the plain entry is a candidate at once.
    assertTrue(index.chooseVictim(CachePriority.SINGLE, (fp, e) -> true, 2, victim));
    assertEquals(entry(1, 100, CachePriority.SINGLE), victim.entry());
  }
}
