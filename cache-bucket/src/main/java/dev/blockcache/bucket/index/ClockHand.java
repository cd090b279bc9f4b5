package dev.blockcache.bucket.index;

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
 * different priorities run concurrently. Lock order: this hand, then one segment at a time.
 */
final class ClockHand {
  int segment;
  int slot;
  /** Entries of the hand's priority seen during the current walk; scratch for the stop rule. */
  long candidates;
  /** Occupied slots the current victim choice may still visit; scratch for its slot limit. */
  int slotBudget;

  /**
   * Most occupied slots (entries of any priority) one victim choice visits: 1,024 bounds its cost when the filter declines most
   * entries of the priority (all of them in the admission window, say), where the stop rule alone would let it walk
   * the whole index twice on every admission.
   */
  static final int SAMPLE_SLOT_LIMIT = 1024;
  /** Fingerprints chosen in the current segment pass; reused across calls (grows to the largest pass, never shrinks). */
  long[] victims = new long[16];

  /** Appends {@code fingerprint} at {@code count}; returns the new count. */
  int addVictim(int count, long fingerprint) {
    if (count == victims.length) {
      victims = Arrays.copyOf(victims, count * 2);
    }
    victims[count] = fingerprint;
    return count + 1;
  }

  /**
   * Removes unreferenced entries of priority {@code p} that {@code accept} takes until their {@code weight}s add up
   * to {@code need} (see {@link Segment#sweep}); returns the weight removed.
   */
  synchronized long sweep(Segment[] segments, int p, long need, LongPredicate accept, LongUnaryOperator weight,
      EntrySink sink) {
    int n = segments.length;
    candidates = 0;
    long removed = 0;
    for (int visit = 0; visit <= 2 * n && removed < need; visit++) {
      removed += segments[segment].sweep(p, need - removed, accept, weight, this, sink);
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
   * (see {@link Segment#sample}), visiting at most {@value #SAMPLE_SLOT_LIMIT}
   * entries; returns how many were offered.
   */
  synchronized int sample(Segment[] segments, int p, int want, VictimFilter accept, FrequencySketch sketch, int epoch,
      Victim victim) {
    int n = segments.length;
    candidates = 0;
    slotBudget = SAMPLE_SLOT_LIMIT;
    int offered = 0;
    for (int visit = 0; visit <= 2 * n && offered < want && slotBudget > 0; visit++) {
      offered += segments[segment].sample(segment, p, want - offered, accept, sketch, epoch, this, victim);
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

  private void advance(int segmentCount) {
    segment = (segment + 1) & (segmentCount - 1);
  }
}
