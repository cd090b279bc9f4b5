package dev.blockcache.bucket.index;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CachePriority;
import java.util.concurrent.atomic.LongAdder;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * Model-checks the reference-bit CAS of a touching lookup ({@link Segment#lookup} with {@code touch}) against the
 * plain stores writers make under the segment's write lock on the same words: inserts, a resize copying the table
 * (six entries are inserted before each run, so the seventh insert grows the table), the moves of a backward-shift
 * delete, and the promotion of a SINGLE entry (a plain store of the entry with its bit). Forbids: a lookup returning
 * an entry that was never stored under its key, a non-linearizable hit, miss, insert or removal, and — checked after
 * every run — a key whose stored word is another key's entry (a stale word written back over a moved one). Losing a
 * reference bit is allowed (it only changes which entry the CLOCK evicts), so the bits themselves are not compared.
 */
@Param(name = "k", gen = IntGen.class, conf = "1:4")
public class SegmentReferenceBitLincheckTest {
  private static final int PREFILLED = 6;
  private final Segment segment = new Segment(new LongAdder(), bytes(), new LongAdder());

  private static LongAdder[] bytes() {
    LongAdder[] b = new LongAdder[CachePriority.COUNT];
    for (int i = 0; i < b.length; i++) {
      b[i] = new LongAdder();
    }
    return b;
  }

  public SegmentReferenceBitLincheckTest() {
    for (int i = 0; i < PREFILLED; i++) {
      segment.putIfAbsent(fingerprint(100 + i), entry(100 + i, CachePriority.MULTI));
    }
  }

  /**
   * Fingerprints that share home slots in small tables (multiples of 8 apart), so inserts cluster and deletes
   * shift entries back.
   */
  private static long fingerprint(int k) {
    return 8L * k + 1;
  }

  /** A distinct entry per key: its offset names the key, so a word moved to another key shows. */
  private static long entry(int k, CachePriority priority) {
    return IndexEntry.pack(k * (long) IndexEntry.OFFSET_UNIT, 1000, priority, BlockCategory.DATA);
  }

  /** Key {@code k}'s entry as an insert of it stores it: keys 1-2 as SINGLE (promoted by a hit), 3-4 as MULTI. */
  private static long entryOf(int k) {
    return entry(k, k <= 2 ? CachePriority.SINGLE : CachePriority.MULTI);
  }

  @Operation
  public boolean put(@Param(name = "k") int k) {
    return segment.putIfAbsent(fingerprint(k), entryOf(k)) == IndexEntry.ABSENT;
  }

  /** A touching lookup: the CAS of the reference bit, or the promotion of a SINGLE entry. Returns the offset. */
  @Operation
  public long hit(@Param(name = "k") int k) {
    long e = segment.lookup(fingerprint(k), Segment.Access.TOUCH);
    return e == IndexEntry.ABSENT ? -1 : IndexEntry.offset(e);
  }

  /** Also touches a prefilled entry, whose word a resize or a backward shift may move under the CAS. */
  @Operation
  public long hitPrefilled(@Param(name = "k") int k) {
    long e = segment.lookup(fingerprint(100 + k), Segment.Access.TOUCH);
    return e == IndexEntry.ABSENT ? -1 : IndexEntry.offset(e);
  }

  /**
   * Removes key {@code k} whatever its entry: a remove names the entry it removes, and a racing hit may promote it
   * between the look and the remove (once: a promoted entry stays MULTI), so a second attempt always settles it.
   */
  @Operation
  public boolean remove(@Param(name = "k") int k) {
    for (int attempt = 0; attempt < 3; attempt++) {
      long e = segment.lookup(fingerprint(k), Segment.Access.PEEK);
      if (e == IndexEntry.ABSENT) {
        return false;
      }
      if (segment.remove(fingerprint(k), e)) {
        return true;
      }
    }
    throw new IllegalStateException("key " + k + " changed its entry three times");
  }

  /** Removes a prefilled entry: the backward shift moves the entries after it in its cluster under racing CASes. */
  @Operation
  public boolean removePrefilled(@Param(name = "k") int k) {
    long e = segment.lookup(fingerprint(100 + k), Segment.Access.PEEK);
    return e != IndexEntry.ABSENT && segment.remove(fingerprint(100 + k), e);
  }

  /** Every stored word still holds its key's entry (modulo priority and the bit). */
  @Validate
  public void noKeyHoldsAForeignEntry() {
    int[] seen = {0};
    segment.forEach(0, (s, fingerprint, entry) -> {
      long k = (fingerprint - 1) / 8;
      if (IndexEntry.offset(entry) != k * IndexEntry.OFFSET_UNIT || IndexEntry.length(entry) != 1000) {
        throw new IllegalStateException("key " + k + " holds a foreign entry: offset " + IndexEntry.offset(entry));
      }
      seen[0]++;
    });
    if (seen[0] < PREFILLED - 4) {
      throw new IllegalStateException(seen[0] + " entries seen, fewer than the prefilled ones not removed");
    }
  }

  @Test
  void modelChecking() {
    int scale = Boolean.getBoolean("blockcache.race.long") ? 8 : 1;
    new ModelCheckingOptions().iterations(10 * scale).invocationsPerIteration(200).threads(2).actorsPerThread(3)
        .actorsBefore(1).check(SegmentReferenceBitLincheckTest.class);
  }
}
