package dev.blockcache.bucket.index;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Arrays;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;

/**
 * The CLOCK hand of one priority: where its walk over the index's segments resumes (a segment and a slot in it), and
 * the two walks that move it, the eviction sweep ({@link #sweep}) and the victim choice ({@link #sample}). Slot
 * positions shift when a segment resizes or deletes, so the hand is a position, not an entry; a pass after a resize
 * may start a little early or late in that segment, which only changes which equally-cold entry goes first.
 *
 * <p><b>Stop rule</b> (both walks): a walk ends when it has what it needs, after a full revolution that saw no entry
 * of the priority, or after two revolutions (the first may only clear reference bits); 2n + 1 segment visits for n
 * segments: two revolutions plus the start of the segment the hand started in.
 *
 * <p>Thread-safety: the walks are {@code synchronized} on the hand, so walks of one priority serialise and walks of
 * different priorities run concurrently. Lock order: this hand, then one segment at a time; a walk's step in a
 * segment reads and writes the segment's table, counts and stamps under that segment's write lock, keeping
 * {@link Segment}'s invariants.
 */
final class ClockHand {
  @GuardedBy("this")
  int segment;
  @GuardedBy("this")
  int slot;
  /** Entries of the hand's priority seen during the current walk; scratch for the stop rule. */
  @GuardedBy("this")
  long candidates;
  /** Occupied slots the current victim choice may still visit; scratch for its slot limit. */
  @GuardedBy("this")
  int slotBudget;

  /**
   * Most occupied slots (entries of any priority) one victim choice visits: 1,024 bounds its cost when the filter declines most
   * entries of the priority (all of them in the admission window, say), where the stop rule alone would let it walk
   * the whole index twice on every admission.
   */
  static final int SAMPLE_SLOT_LIMIT = 1024;
  /** Fingerprints chosen in the current segment pass; reused across calls (grows to the largest pass, never shrinks). */
  @GuardedBy("this")
  long[] victims = new long[16];

  /** Appends {@code fingerprint} at {@code count}; returns the new count. */
  @GuardedBy("this")
  int addVictim(int count, long fingerprint) {
    if (count == victims.length) {
      victims = Arrays.copyOf(victims, count * 2);
    }
    victims[count] = fingerprint;
    return count + 1;
  }

  /**
   * Removes unreferenced entries of priority {@code p} that {@code accept} takes until their {@code weight}s add up
   * to {@code need} (see {@link #sweepSegment}); returns the weight removed.
   */
  synchronized long sweep(Segment[] segments, int p, long need, LongPredicate accept, LongUnaryOperator weight,
      EntrySink sink) {
    int n = segments.length;
    candidates = 0;
    long removed = 0;
    for (int visit = 0; visit <= 2 * n && removed < need; visit++) {
      removed += sweepSegment(segments[segment], p, need - removed, accept, weight, sink);
      if (slot != 0) {
        break; // stopped inside the segment: enough removed
      }
      advance(n);
      if (visit == n && candidates == 0) {
        break; // a full revolution (back past where the hand started) found no entry of this priority
      }
    }
    return removed;
  }

  /**
   * Offers up to {@code want} unreferenced entries of priority {@code p} that {@code accept} takes to {@code victim}
   * (see {@link #sampleSegment}), visiting at most {@value #SAMPLE_SLOT_LIMIT}
   * entries; returns how many were offered.
   */
  synchronized int sample(Segment[] segments, int p, int want, VictimFilter accept, FrequencySketch sketch, int epoch,
      Victim victim) {
    int n = segments.length;
    candidates = 0;
    slotBudget = SAMPLE_SLOT_LIMIT;
    int offered = 0;
    for (int visit = 0; visit <= 2 * n && offered < want && slotBudget > 0; visit++) {
      offered += sampleSegment(segments[segment], segment, p, want - offered, accept, sketch, epoch, victim);
      if (slot != 0) {
        break; // stopped inside the segment: enough offered, or the slot limit reached
      }
      advance(n);
      if (visit == n && candidates == 0) {
        break;
      }
    }
    return offered;
  }

  /**
   * One CLOCK pass over segment {@code s} for entries of priority {@code p}, from slot {@code slot} to the end.
   * Referenced entries lose their bit; unreferenced ones are chosen until their {@code weight}s (bytes, or 1 per entry)
   * add up to {@code need}, then removed after the scan, so that no backward shift can move an examined entry in
   * front of the scan and have it examined twice, and handed to {@code sink} once the lock is released. Updates
   * {@code slot} (where the next pass resumes, or 0 when the segment is done) and {@code candidates};
   * returns the weight removed.
   */
  @GuardedBy("this")
  private long sweepSegment(Segment s, int p, long need, LongPredicate accept, LongUnaryOperator weight,
      EntrySink sink) {
    RemovedEntries removed = new RemovedEntries();
    long freed = 0;
    s.lock.lock();
    try {
      if (s.countByPriority[p] == 0) {
        slot = 0;
        return 0;
      }
      long[] t = s.table;
      int cap = t.length >>> 1;
      int chosen = 0;
      int i = Math.min(slot, cap);
      for (; i < cap && freed < need; i++) {
        long stored = t[2 * i + 1];
        if (t[2 * i] != 0 && IndexEntry.priorityOrdinal(stored) == p && accept.test(stored & ~Segment.REF_BIT)) {
          candidates++;
          if ((stored & Segment.REF_BIT) != 0) {
            t[2 * i + 1] = stored & ~Segment.REF_BIT;
          } else {
            chosen = addVictim(chosen, t[2 * i]);
            freed += weight.applyAsLong(stored & ~Segment.REF_BIT);
          }
        }
      }
      slot = i < cap ? i : 0;
      for (int v = 0; v < chosen; v++) {
        int at = LinearProbe.find(s.table, victims[v]);
        long entry = s.table[2 * at + 1] & ~Segment.REF_BIT; // present: we hold the lock since choosing it
        s.deleteLocked(at);
        removed.add(entry);
      }
    } finally {
      s.lock.unlock();
    }
    removed.drainTo(sink);
    return freed;
  }

  /** Whether the stored word {@code stored} is of the walk {@code p}: a priority ordinal, or {@link Segment#WINDOW}. */
  private static boolean ofWalk(int p, long stored) {
    return p == Segment.WINDOW ? IndexEntry.inWindow(stored) : IndexEntry.priorityOrdinal(stored) == p;
  }

  /**
   * One step of a victim choice ({@link BlockIndex#chooseVictim}) for priority {@code p} (or, with
   * {@link Segment#WINDOW}, for the entries in the admission window, whatever their priority), from slot
   * {@code slot} to the end of segment {@code s}: a referenced entry loses its bit and is passed over (its second
   * chance); an unreferenced one that {@code accept} takes is offered to {@code victim} with its estimated frequency
   * and its age (epochs since its last read, at {@code epoch}; 0 without stamps), until {@code want} have been
   * offered or the walk's {@code slotBudget} is spent. Removes nothing but caps the stamp of an offered entry older
   * than {@value RecencyClock#MAX_AGE} epochs at that age ({@link RecencyClock#ageOf}). Updates {@code slot} (where
   * the next step resumes, 0 when the segment is done), {@code candidates} and the budget; returns how many entries
   * were offered.
   */
  @GuardedBy("this")
  private int sampleSegment(Segment s, int segmentIndex, int p, int want, VictimFilter accept, FrequencySketch sketch,
      int epoch, Victim victim) {
    s.lock.lock();
    try {
      if ((p == Segment.WINDOW ? s.windowCount : s.countByPriority[p]) == 0) {
        slot = 0;
        return 0;
      }
      long[] t = s.table;
      byte[] st = s.stamps;
      int cap = t.length >>> 1;
      int offered = 0;
      int i = Math.min(slot, cap);
      for (; i < cap && offered < want && slotBudget > 0; i++) {
        long stored = t[2 * i + 1];
        long fp = t[2 * i];
        if (fp != 0) {
          slotBudget--;
        }
        if (fp != 0 && ofWalk(p, stored) && accept.accepts(fp, stored & ~Segment.REF_BIT)) {
          candidates++;
          if ((stored & Segment.REF_BIT) != 0) {
            t[2 * i + 1] = stored & ~Segment.REF_BIT;
          } else {
            int age = st == null ? 0 : RecencyClock.ageOf(st, i, epoch);
            victim.offer(segmentIndex, fp, stored, sketch.frequency(fp), age);
            offered++;
          }
        }
      }
      slot = i < cap ? i : 0;
      return offered;
    } finally {
      s.lock.unlock();
    }
  }

  @GuardedBy("this")
  private void advance(int segmentCount) {
    segment = (segment + 1) & (segmentCount - 1);
  }
}
