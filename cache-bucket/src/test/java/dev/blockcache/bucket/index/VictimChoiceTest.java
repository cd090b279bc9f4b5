package dev.blockcache.bucket.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pins the tinylfu eviction order: within a priority, recently read entries pass, the least recently read of the
 * sample goes (by recency stamp), and among equally old ones the least frequent.
 */
class VictimChoiceTest {
  private static long entry(int i, CachePriority p) {
    return IndexEntry.pack((long) i * IndexEntry.OFFSET_UNIT, 100, p, BlockCategory.DATA);
  }

  @Test
  void theLeastFrequentOfTheSampleGoesNotTheFirstInHashOrder() {
    BlockIndex index = new BlockIndex(1024, new FrequencySketch(1024));
    List<BlockKey> keys = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      BlockKey key = BlockKey.of("f", i * 4096L);
      keys.add(key);
      index.putIfAbsent(key, entry(i, CachePriority.MULTI));
    }
    // Every key read (3 + i) times, except key 5, read once: it is the coldest.
    for (int i = 0; i < keys.size(); i++) {
      for (int n = 0; n < (i == 5 ? 1 : 3 + i); n++) {
        index.get(keys.get(i));
      }
    }
    Victim victim = new Victim();
    // The first choice clears the reference bits the reads set (their second chance) ...
    index.chooseVictim(CachePriority.MULTI, (fp, e) -> true, 64, victim);
    // ... after which all 8 are candidates, and the coldest wins.
    assertTrue(index.chooseVictim(CachePriority.MULTI, (fp, e) -> true, 64, victim));
    assertEquals(entry(5, CachePriority.MULTI), victim.entry());
    assertEquals(1, victim.frequency());
    assertTrue(index.removeVictim(victim, e -> { }));
    assertEquals(7, index.size());
  }

  @Test
  void aRecentlyReadEntryIsPassedOverOnce() {
    BlockIndex index = new BlockIndex(1024, new FrequencySketch(1024));
    BlockKey cold = BlockKey.of("f", 0);
    BlockKey read = BlockKey.of("f", 4096);
    index.putIfAbsent(cold, entry(0, CachePriority.MULTI));
    index.putIfAbsent(read, entry(1, CachePriority.MULTI));
    for (int n = 0; n < 5; n++) {
      index.get(cold); // cold is more frequent, but ...
    }
    Victim victim = new Victim();
    index.chooseVictim(CachePriority.MULTI, (fp, e) -> true, 64, victim); // clears both bits
    index.get(read); // ... read is read again since the hand passed: it keeps its place this time round
    assertTrue(index.chooseVictim(CachePriority.MULTI, (fp, e) -> true, 1, victim));
    assertEquals(entry(0, CachePriority.MULTI), victim.entry());
  }

  @Test
  void onlyEntriesOfTheAskedPriorityAndFilterAreCandidates() {
    BlockIndex index = new BlockIndex(1024, new FrequencySketch(1024));
    index.putIfAbsent(BlockKey.of("f", 0), entry(0, CachePriority.SINGLE));
    index.putIfAbsent(BlockKey.of("f", 1), entry(1, CachePriority.MEMORY));
    Victim victim = new Victim();
    assertFalse(index.chooseVictim(CachePriority.MULTI, (fp, e) -> true, 8, victim));
    assertFalse(index.chooseVictim(CachePriority.SINGLE, (fp, e) -> false, 8, victim));
    assertTrue(index.chooseVictim(CachePriority.MEMORY, (fp, e) -> true, 8, victim));
    assertEquals(entry(1, CachePriority.MEMORY), victim.entry());
  }

  @Test
  void anEntryTheFilterDeclinesByFingerprintIsSkippedAndKeepsItsReferenceBit() {
    BlockIndex index = new BlockIndex(1024, new FrequencySketch(1024));
    BlockKey windowed = BlockKey.of("f", 0);
    BlockKey main = BlockKey.of("f", 4096);
    index.putIfAbsent(windowed, entry(0, CachePriority.MULTI));
    index.putIfAbsent(main, entry(1, CachePriority.MULTI));
    for (int n = 0; n < 5; n++) {
      index.get(main); // main is the more frequent, windowed never read: still it is never chosen
    }
    long skipped = BlockIndex.fingerprint(windowed);
    Victim victim = new Victim();
    index.get(windowed); // referenced: a walk that visited it would clear the bit
    assertTrue(index.chooseVictim(CachePriority.MULTI, (fp, e) -> fp != skipped, 64, victim));
    assertTrue(index.chooseVictim(CachePriority.MULTI, (fp, e) -> fp != skipped, 64, victim));
    assertEquals(entry(1, CachePriority.MULTI), victim.entry());
    // the filtered entry was not visited: one more walk that accepts it passes over it (bit still set) once
    assertTrue(index.chooseVictim(CachePriority.MULTI, (fp, e) -> true, 1, victim));
    assertEquals(entry(1, CachePriority.MULTI), victim.entry());
  }

  @Test
  void anEntryIsFoundAndRemovedByItsSegmentAndFingerprint() {
    BlockIndex index = new BlockIndex(1024, new FrequencySketch(1024));
    BlockKey key = BlockKey.of("f", 8192);
    long e = entry(2, CachePriority.SINGLE);
    index.putIfAbsent(key, e);
    int segment = index.segmentIndex(key);
    long fp = BlockIndex.fingerprint(key);
    assertEquals(e, index.peek(segment, fp));
    assertFalse(index.remove(segment, fp, entry(3, CachePriority.SINGLE), x -> { }), "only the exact entry goes");
    long[] sunk = {IndexEntry.ABSENT};
    assertTrue(index.remove(segment, fp, e, x -> sunk[0] = x));
    assertEquals(e, sunk[0]);
    assertEquals(IndexEntry.ABSENT, index.peek(segment, fp));
  }

  @Test
  void aVictimRemovedMeanwhileIsNotRemovedTwice() {
    BlockIndex index = new BlockIndex(1024, new FrequencySketch(1024));
    BlockKey key = BlockKey.of("f", 0);
    index.putIfAbsent(key, entry(0, CachePriority.SINGLE));
    Victim victim = new Victim();
    assertTrue(index.chooseVictim(CachePriority.SINGLE, (fp, e) -> true, 8, victim));
    assertTrue(index.remove(key, entry(0, CachePriority.SINGLE)));
    int[] sunk = {0};
    assertFalse(index.removeVictim(victim, e -> sunk[0]++));
    assertEquals(0, sunk[0]);
  }

  @Test
  void getsAreCountedOnlyWithASketch() {
    BlockIndex plain = new BlockIndex(1024);
    BlockKey key = BlockKey.of("f", 0);
    plain.get(key);
    assertEquals(0, plain.frequency(key));
    BlockIndex counting = new BlockIndex(1024, new FrequencySketch(1024));
    counting.get(key); // a miss counts too
    counting.get(key);
    assertEquals(2, counting.frequency(key));
  }

  /**
   * Advances {@code index}'s recency epoch by {@code epochs}, counting admissions (an index of fewer than 32 entries
   * advances once per admission, a larger one once per size / {@link RecencyClock#EPOCHS_PER_FILL}).
   */
  private static void advance(BlockIndex index, int epochs) {
    int target = index.epoch() + epochs;
    long admissions = 0;
    while (index.epoch() < target) {
      index.countAdmission();
      admissions++;
    }
    assertEquals(target, index.epoch());
    assertEquals(epochs * Math.max(1, index.size() / RecencyClock.EPOCHS_PER_FILL), admissions);
  }

  @Test
  void theLeastRecentlyReadOfTheSampleGoesEvenIfItIsMoreFrequent() {
    BlockIndex index = new BlockIndex(1024, new FrequencySketch(1024));
    BlockKey old = BlockKey.of("f", 0);
    BlockKey recent = BlockKey.of("f", 4096);
    index.putIfAbsent(old, entry(0, CachePriority.MULTI));
    index.putIfAbsent(recent, entry(1, CachePriority.MULTI));
    for (int n = 0; n < 5; n++) {
      index.get(old); // old is the more frequent, read in epoch 0 ...
    }
    advance(index, 3);
    index.get(recent); // ... recent is read once, 3 epochs later
    Victim victim = new Victim();
    index.chooseVictim(CachePriority.MULTI, (fp, e) -> true, 64, victim); // clears both reference bits
    assertTrue(index.chooseVictim(CachePriority.MULTI, (fp, e) -> true, 64, victim));
    assertEquals(entry(0, CachePriority.MULTI), victim.entry(), "the least recently read goes, not the least frequent");
    assertEquals(3, victim.age());
    assertEquals(5, victim.frequency());
  }

  @Test
  void anOldStampIsCappedSoItNeverWrapsRoundToLookRecent() {
    BlockIndex index = new BlockIndex(1024, new FrequencySketch(1024));
    BlockKey old = BlockKey.of("f", 0);
    BlockKey newer = BlockKey.of("f", 4096);
    index.putIfAbsent(old, entry(0, CachePriority.MULTI)); // stamped in epoch 0
    advance(index, 200);
    index.putIfAbsent(newer, entry(1, CachePriority.MULTI)); // stamped in epoch 200
    Victim victim = new Victim();
    assertTrue(index.chooseVictim(CachePriority.MULTI, (fp, e) -> true, 64, victim));
    assertEquals(entry(0, CachePriority.MULTI), victim.entry());
    assertEquals(RecencyClock.MAX_AGE, victim.age(), "200 epochs old, capped");
    // 100 epochs on, an uncapped 8-bit stamp 0 would read as 300 mod 256 = 44 epochs old, younger than newer's 100
    advance(index, 100);
    assertTrue(index.chooseVictim(CachePriority.MULTI, (fp, e) -> true, 64, victim));
    assertEquals(entry(0, CachePriority.MULTI), victim.entry());
    assertEquals(RecencyClock.MAX_AGE, victim.age());
  }

  @Test
  void stampsMoveWithTheirEntriesThroughResizesAndBackwardShifts() {
    BlockIndex index = new BlockIndex(1024, new FrequencySketch(1024));
    BlockKey oldest = BlockKey.of("f", 0);
    index.putIfAbsent(oldest, entry(0, CachePriority.SINGLE));
    advance(index, 1);
    List<BlockKey> others = new ArrayList<>();
    for (int i = 1; i <= 300; i++) { // grows every segment of the file's group several times
      BlockKey key = BlockKey.of("f", i * 4096L);
      others.add(key);
      index.putIfAbsent(key, entry(i, CachePriority.SINGLE));
      if (i % 60 == 0) {
        advance(index, 1);
      }
    }
    for (int i = 0; i < others.size(); i += 2) { // removals shift later cluster members back
      assertTrue(index.remove(others.get(i), entry(i + 1, CachePriority.SINGLE)));
    }
    Victim victim = new Victim();
    assertTrue(index.chooseVictim(CachePriority.SINGLE, (fp, e) -> true, 1000, victim));
    assertEquals(entry(0, CachePriority.SINGLE), victim.entry(), "the only entry stamped in epoch 0");
    assertEquals(index.epoch(), victim.age());
  }

  @Test
  void anIndexWithoutASketchKeepsNoStamps() {
    BlockIndex plain = new BlockIndex(1024);
    BlockIndex stamped = new BlockIndex(1024, new FrequencySketch(1024));
    long sketchHeap = stamped.sketch().heapBytes();
    // per segment: a byte[] of MIN_CAPACITY slots, 16 B of header and 8 B of stamps
    assertEquals(plain.heapBytes() + sketchHeap + 24L * plain.segmentCount(), stamped.heapBytes());
  }
}
