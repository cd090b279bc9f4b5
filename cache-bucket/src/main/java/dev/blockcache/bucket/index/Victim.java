package dev.blockcache.bucket.index;

/**
 * The entry {@link BlockIndex#chooseVictim} picked: where it is, what it is, and its estimated frequency. Reused by
 * its owner across choices.
 *
 * <p>Thread-safety: not thread-safe; owned by one caller at a time (the L2's reclaimer, under its lock).
 */
public final class Victim {
  int segment = -1;
  long fingerprint;
  long entry = IndexEntry.ABSENT;
  int frequency = Integer.MAX_VALUE;

  /** Forgets the previous choice. */
  void reset() {
    segment = -1;
    fingerprint = 0;
    entry = IndexEntry.ABSENT;
    frequency = Integer.MAX_VALUE;
  }

  /** Whether a victim was found. */
  public boolean found() {
    return entry != IndexEntry.ABSENT;
  }

  /** The victim's {@link IndexEntry} value, or {@link IndexEntry#ABSENT}. */
  public long entry() {
    return entry;
  }

  /** The victim's estimated recent accesses (see {@link FrequencySketch#frequency}). */
  public int frequency() {
    return frequency;
  }

  /** Takes ({@code segment}, {@code fingerprint}, {@code entry}) if its {@code frequency} is the lowest so far. */
  void offer(int segment, long fingerprint, long entry, int frequency) {
    if (frequency < this.frequency) {
      this.segment = segment;
      this.fingerprint = fingerprint;
      this.entry = entry;
      this.frequency = frequency;
    }
  }
}
