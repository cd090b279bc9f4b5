package dev.blockcache.bucket.index;

/**
 * The entry {@link BlockIndex#chooseVictim} picked: where it is, what it is, its age in recency epochs and its
 * estimated frequency. Of the entries offered, the oldest wins; among equally old ones the least frequent; among
 * those the first offered. Reused by its owner across choices.
 *
 * <p>Thread-safety: not thread-safe; owned by one caller at a time (the L2's reclaimer, under its lock).
 */
public final class Victim {
  int segment = -1;
  long fingerprint;
  long entry = IndexEntry.ABSENT;
  int frequency = Integer.MAX_VALUE;
  int age = -1;

  /** Forgets the previous choice. */
  void reset() {
    segment = -1;
    fingerprint = 0;
    entry = IndexEntry.ABSENT;
    frequency = Integer.MAX_VALUE;
    age = -1;
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

  /**
   * The victim's age: recency epochs since it was last read or inserted, capped at {@value RecencyClock#MAX_AGE} (0 if
   * the index keeps no recency); -1 if none was found.
   */
  public int age() {
    return age;
  }

  /**
   * Takes ({@code segment}, {@code fingerprint}, {@code entry}) if it is older than the choice so far, or as old and
   * of a lower {@code frequency}.
   */
  void offer(int segment, long fingerprint, long entry, int frequency, int age) {
    if (age > this.age || (age == this.age && frequency < this.frequency)) {
      this.segment = segment;
      this.fingerprint = fingerprint;
      this.entry = entry;
      this.frequency = frequency;
      this.age = age;
    }
  }
}
