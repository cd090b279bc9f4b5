package dev.blockcache.bucket.index;

import java.util.Arrays;

/**
 * Where the CLOCK sweep of one priority resumes: a segment and a slot in it. Slot positions shift when a segment
 * resizes or deletes, so the hand is a position, not an entry; a pass after a resize may start a little early or
 * late in that segment, which only changes which equally-cold entry goes first.
 *
 * <p>Thread-safety: not thread-safe; guarded by the hand's own monitor, held for the whole of
 * {@link BlockIndex#evict}.
 */
final class ClockHand {
  int segment;
  int slot;
  /** Entries of the hand's priority seen during the current call; scratch for the stop rule. */
  long candidates;
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
}
