package dev.blockcache.bucket.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlockIndexTest {
  private static final long ABSENT = IndexEntry.ABSENT;

  /** An entry whose slot offset encodes {@code id}, so a wrong entry is recognisable. */
  static long entry(long id, int length, CachePriority p) {
    return IndexEntry.pack(id * IndexEntry.OFFSET_UNIT, length, p, BlockCategory.DATA);
  }

  private static BlockKey key(String file, long offset) {
    return BlockKey.of(file, offset);
  }

  @Test
  void putIfAbsentGetPeekAndRemove() {
    BlockIndex index = new BlockIndex(100);
    BlockKey k = key("a", 0);
    long e = entry(1, 100, CachePriority.MULTI);
    assertEquals(ABSENT, index.get(k));
    assertEquals(ABSENT, index.putIfAbsent(k, e));
    assertEquals(e, index.peek(k));
    assertEquals(e, index.get(k));
    assertEquals(1, index.size());
    assertEquals(100, index.bytes(CachePriority.MULTI));
    assertEquals(ABSENT, index.peek(key("a", 1)));
    assertEquals(ABSENT, index.peek(key("b", 0)));

    long other = entry(2, 50, CachePriority.MULTI);
    assertEquals(e, index.putIfAbsent(k, other), "the existing entry is returned and kept");
    assertEquals(e, index.peek(k));
    assertFalse(index.remove(k, other), "only the exact entry is removed");
    assertEquals(e, index.peek(k));
    assertTrue(index.remove(k, e));
    assertFalse(index.remove(k, e));
    assertEquals(ABSENT, index.peek(k));
    assertEquals(0, index.size());
    assertEquals(0, index.bytes(CachePriority.MULTI));
  }

  @Test
  void negativeEntriesAreRefused() {
    BlockIndex index = new BlockIndex(10);
    assertThrows(IllegalArgumentException.class, () -> index.putIfAbsent(key("a", 0), ABSENT));
    assertFalse(index.remove(key("a", 0), ABSENT));
  }

  @Test
  void aRepeatAccessPromotesSingleToMultiAndMovesItsBytes() {
    BlockIndex index = new BlockIndex(100);
    BlockKey k = key("a", 0);
    long e = entry(1, 300, CachePriority.SINGLE);
    index.putIfAbsent(k, e);
    assertEquals(300, index.bytes(CachePriority.SINGLE));
    assertEquals(e, index.peek(k), "peek leaves the priority alone");
    assertEquals(300, index.bytes(CachePriority.SINGLE));

    long promoted = index.get(k);
    assertEquals(IndexEntry.withPriority(e, CachePriority.MULTI), promoted);
    assertEquals(0, index.bytes(CachePriority.SINGLE));
    assertEquals(300, index.bytes(CachePriority.MULTI));
    assertEquals(promoted, index.get(k));
    assertEquals(300, index.bytes(CachePriority.MULTI));
    assertTrue(index.remove(k, promoted), "the caller removes with the promoted value");
    assertEquals(0, index.bytes(CachePriority.MULTI));

    BlockKey m = key("a", 1);
    long mem = entry(2, 10, CachePriority.MEMORY);
    index.putIfAbsent(m, mem);
    assertEquals(mem, index.get(m), "MEMORY stays MEMORY");
    assertEquals(10, index.bytes(CachePriority.MEMORY));
  }

  @Test
  void removeFileRemovesExactlyThatFilesEntriesAmongFilesSharingSegments() {
    BlockIndex index = new BlockIndex(0); // 16 file groups: 200 files share them
    int files = 200;
    int blocks = 40;
    Map<String, Set<Long>> byFile = new HashMap<>();
    long id = 0;
    for (int f = 0; f < files; f++) {
      String name = "hfile-" + f;
      Set<Long> entries = new HashSet<>();
      for (int b = 0; b < blocks; b++) {
        long e = entry(id++, 10 + b, CachePriority.SINGLE);
        assertEquals(ABSENT, index.putIfAbsent(key(name, b * 65_536L), e));
        entries.add(e);
      }
      byFile.put(name, entries);
    }
    assertEquals((long) files * blocks, index.size());
    for (int f = 0; f < files; f += 2) {
      String name = "hfile-" + f;
      Set<Long> removed = new HashSet<>();
      assertEquals(blocks, index.removeFile(name, removed::add));
      assertEquals(byFile.get(name), removed);
    }
    assertEquals(0, index.removeFile("hfile-0", e -> { }));
    assertEquals((long) files / 2 * blocks, index.size());
    for (int f = 0; f < files; f++) {
      for (int b = 0; b < blocks; b++) {
        long got = index.peek(key("hfile-" + f, b * 65_536L));
        if (f % 2 == 0) {
          assertEquals(ABSENT, got);
        } else {
          assertTrue(byFile.get("hfile-" + f).contains(got));
        }
      }
    }
  }

  /** Two names whose file hashes agree on the tag and on {@code groupBits} low bits (found by brute force). */
  private static String[] namesWithCollidingTagAndGroup(int groupBits) {
    Map<Long, String> seen = new HashMap<>();
    for (int i = 0; ; i++) {
      String name = "f" + i;
      long h = BlockKey.fileHash(name);
      long sig = Fingerprint.tagOf(h) << groupBits | (h & ((1L << groupBits) - 1));
      String prior = seen.putIfAbsent(sig, name);
      if (prior != null) {
        return new String[] {prior, name};
      }
    }
  }

  @Test
  void filesWithCollidingTagAndGroupAreRemovedTogether() {
    BlockIndex index = new BlockIndex(0);
    String[] names = namesWithCollidingTagAndGroup(Integer.numberOfTrailingZeros(index.fileGroups()));
    assertNotNull(names);
    for (int b = 0; b < 20; b++) {
      index.putIfAbsent(key(names[0], b), entry(b, 1, CachePriority.SINGLE));
      index.putIfAbsent(key(names[1], b), entry(100 + b, 1, CachePriority.SINGLE));
      index.putIfAbsent(key("bystander", b), entry(200 + b, 1, CachePriority.SINGLE));
    }
    // Documented: the index cannot tell these files apart, so both go (misses later, never wrong data).
    assertEquals(40, index.removeFile(names[0], e -> { }));
    assertEquals(20, index.size());
    assertEquals(entry(205, 1, CachePriority.SINGLE), index.peek(key("bystander", 5)));
  }

  @Test
  void clockKeepsRecentlyAccessedEntriesForOneSweep() {
    BlockIndex index = new BlockIndex(1000);
    int n = 1000;
    for (int i = 0; i < n; i++) {
      index.putIfAbsent(key("f" + (i % 7), i), entry(i, 100, CachePriority.MULTI));
    }
    for (int i = 0; i < n; i += 2) {
      index.get(key("f" + (i % 7), i));
    }
    List<Long> evicted = new ArrayList<>();
    assertEquals(50_000, index.evict(CachePriority.MULTI, 50_000, evicted::add));
    assertEquals(500, evicted.size());
    for (long e : evicted) {
      assertEquals(1, (IndexEntry.offset(e) / IndexEntry.OFFSET_UNIT) % 2, "only unaccessed entries go");
    }
    for (int i = 0; i < n; i += 2) {
      assertTrue(index.peek(key("f" + (i % 7), i)) != ABSENT);
    }
    // Their bits are spent: the next sweep takes them.
    assertEquals(10_000, index.evict(CachePriority.MULTI, 10_000, e -> { }));
    assertEquals(400, index.size());
  }

  @Test
  void evictEntriesCountsEntriesWhateverTheirLength() {
    BlockIndex index = new BlockIndex(1000);
    for (int i = 0; i < 100; i++) {
      index.putIfAbsent(key("f", i), entry(i, 10 + i * 100, CachePriority.SINGLE));
    }
    List<Long> evicted = new ArrayList<>();
    assertEquals(7, index.evictEntries(CachePriority.SINGLE, 7, e -> IndexEntry.length(e) > 5_000, evicted::add));
    assertEquals(7, evicted.size());
    for (long e : evicted) {
      assertTrue(IndexEntry.length(e) > 5_000, "only accepted entries go");
    }
    assertEquals(93, index.size());
    assertEquals(93, index.evictEntries(CachePriority.SINGLE, 1_000, e -> true, e -> { }), "fewer when short");
    assertEquals(0, index.size());
  }

  @Test
  void evictFreesAtLeastTheRequestedBytesAndOnlyOfItsPriority() {
    BlockIndex index = new BlockIndex(1000);
    for (int i = 0; i < 300; i++) {
      CachePriority p = CachePriority.ofOrdinal(i % 3);
      index.putIfAbsent(key("f", i), entry(i, 1000 + i, p));
    }
    long before = index.bytes(CachePriority.SINGLE);
    long freed = index.evict(CachePriority.SINGLE, 5_500, e -> assertEquals(CachePriority.SINGLE, IndexEntry.priority(e)));
    assertTrue(freed >= 5_500 && freed < 5_500 + 1300, "freed " + freed);
    assertEquals(before - freed, index.bytes(CachePriority.SINGLE));

    // Asking for more than there is: two revolutions take everything unreferenced and referenced alike.
    long[] seen = new long[1];
    long rest = index.evict(CachePriority.SINGLE, Long.MAX_VALUE, e -> seen[0] += IndexEntry.length(e));
    assertEquals(before - freed, rest);
    assertEquals(rest, seen[0]);
    assertEquals(0, index.bytes(CachePriority.SINGLE));
    assertEquals(0, index.evict(CachePriority.SINGLE, 1, e -> { }));
    assertEquals(200, index.size());
    for (int i = 0; i < 300; i += 3) {
      index.get(key("f", i + 1)); // MULTI: referenced
    }
    assertEquals(index.bytes(CachePriority.MULTI), index.evict(CachePriority.MULTI, Long.MAX_VALUE, e -> { }));
    assertEquals(100, index.size());
  }

  @Test
  void growthKeepsEveryEntryAndTheHeapBound() {
    BlockIndex index = new BlockIndex(0);
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      // one big file and many small ones
      String file = i % 2 == 0 ? "big" : "small-" + (i % 501);
      assertEquals(ABSENT, index.putIfAbsent(key(file, i), entry(i, 64, CachePriority.SINGLE)));
    }
    assertEquals(n, index.size());
    assertEquals(64L * n, index.bytes(CachePriority.SINGLE));
    for (int i = 0; i < n; i++) {
      String file = i % 2 == 0 ? "big" : "small-" + (i % 501);
      assertEquals(entry(i, 64, CachePriority.SINGLE), index.peek(key(file, i)));
    }
    double perEntry = (double) index.heapBytes() / index.size();
    assertTrue(perEntry <= 32, "heapBytes/size = " + perEntry);
    assertEquals(n / 2, index.removeFile("big", e -> { }));
    assertEquals(n / 2, index.size());
  }

  @Test
  void forEachAndRestoreRebuildTheIndex() {
    BlockIndex index = new BlockIndex(5000);
    for (int i = 0; i < 5000; i++) {
      index.putIfAbsent(key("f" + (i % 13), i), entry(i, i % 100, CachePriority.ofOrdinal(i % 3)));
    }
    BlockIndex copy = new BlockIndex(5000);
    assertEquals(index.segmentCount(), copy.segmentCount());
    index.forEach((segment, fp, e) -> assertEquals(ABSENT, copy.restore(segment, fp, e)));
    assertEquals(index.size(), copy.size());
    for (CachePriority p : CachePriority.values()) {
      assertEquals(index.bytes(p), copy.bytes(p));
    }
    for (int i = 0; i < 5000; i++) {
      assertEquals(index.peek(key("f" + (i % 13), i)), copy.peek(key("f" + (i % 13), i)));
    }
    assertEquals(5000 / 13 + 1, copy.removeFile("f0", e -> { }));
  }

  @Test
  void clearRemovesEverythingThroughTheSink() {
    BlockIndex index = new BlockIndex(100);
    Set<Long> put = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      long e = entry(i, 7, CachePriority.ofOrdinal(i % 3));
      index.putIfAbsent(key("f" + (i % 3), i), e);
      put.add(e);
    }
    Set<Long> removed = new HashSet<>();
    index.clear(removed::add);
    assertEquals(put, removed);
    assertEquals(0, index.size());
    for (CachePriority p : CachePriority.values()) {
      assertEquals(0, index.bytes(p));
    }
    assertEquals(ABSENT, index.peek(key("f0", 0)));
    assertEquals(ABSENT, index.putIfAbsent(key("f0", 0), entry(0, 7, CachePriority.SINGLE)));
  }

  /** Pins the restore path: presized segments take a whole checkpoint, in its table order, without one resize. */
  @Test
  void aPresizedIndexRestoresAnotherIndexsContentWithoutGrowing() {
    BlockIndex source = new BlockIndex(20_000);
    for (int i = 0; i < 20_000; i++) {
      source.putIfAbsent(key("hfile-" + (i % 7), i * 4096L), entry(i, 4096, CachePriority.SINGLE));
    }
    int[] counts = new int[source.segmentCount()];
    source.forEach((segment, fingerprint, e) -> counts[segment]++);
    BlockIndex restored = new BlockIndex(20_000);
    for (int s = 0; s < counts.length; s++) {
      restored.presize(s, counts[s]);
    }
    long presizedHeap = restored.heapBytes();
    source.forEach((segment, fingerprint, e) -> assertEquals(ABSENT, restored.restore(segment, fingerprint, e)));
    assertEquals(presizedHeap, restored.heapBytes());
    assertEquals(20_000, restored.size());
    for (int i = 0; i < 20_000; i++) {
      assertEquals(entry(i, 4096, CachePriority.SINGLE), restored.peek(key("hfile-" + (i % 7), i * 4096L)));
    }
    assertThrows(IllegalArgumentException.class, () -> restored.presize(counts.length, 1));
    assertThrows(IllegalArgumentException.class, () -> restored.presize(0, -1));
  }
}
