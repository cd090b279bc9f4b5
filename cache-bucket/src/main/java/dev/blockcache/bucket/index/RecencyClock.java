package dev.blockcache.bucket.index;

/**
 * The tinylfu index's recency: an epoch that advances a few times per fill of the cache, and the one-byte stamps
 * its entries carry.
 *
 * <h2>Design notes</h2>
 * The CLOCK hands walk in slot order, which is hash order, so the reference bit alone says only "read since the hand
 * last came by". Each entry therefore also carries the low 8 bits of the epoch in which it was last read or inserted
 * (a {@code byte[]} per {@link Segment}, parallel to its slots), set on insert and on every get that finds it (a
 * plain write of one byte, made only when it changes, without the segment lock: like the reference bit, a lost race
 * blurs recency and nothing else). The epoch advances {@value #EPOCHS_PER_FILL} times per fill of the cache, counted
 * in admissions ({@link #countAdmission}, which the reclaimer calls under its lock), so hits write no shared counter.
 * An entry's age is the current epoch minus its stamp, capped at {@value #MAX_AGE} when a hand offers it
 * ({@link #ageOf}), so the stamp cannot wrap round to look recent. Stamps are not part of the checkpoint: a restored
 * entry is stamped with the epoch of its restore.
 *
 * <p>Thread-safety: {@link #countAdmission} callers serialise; {@link #epoch} may be read by any thread.
 */
final class RecencyClock {
  /**
   * Recency epochs per fill of the cache: the epoch advances once per {@code entries / EPOCHS_PER_FILL} admissions.
   * 16 tells apart entries read 1/16 of a fill apart, enough to rank a victim sample that spans the main region, and
   * lets an 8-bit stamp rank ages up to 8 fills ({@value #MAX_AGE} epochs); older entries tie and the least frequent
   * goes. Many more epochs per fill cap the ages the stamp tells apart below a fill; the hit-ratio simulator found no
   * better value from 8 to 256 (docs/decisions.md#l2-admission-and-eviction, "Main victim").
   */
  static final int EPOCHS_PER_FILL = 16;
  /**
   * Oldest age, in recency epochs, a stamp tells apart: 128, half the 8-bit stamp's range (8 fills of the cache). A
   * hand offering an older entry caps its stamp at this age, so the stamp cannot wrap round to look recent unless no
   * hand comes by for another 128 epochs (a priority nothing is evicted from); such an entry is then only ranked as
   * younger than it is, once, when the hand next offers it.
   */
  static final int MAX_AGE = 128;

  /** Written under the caller's lock by {@link #countAdmission}, read by lookups. */
  private volatile int epoch;
  /** Admissions counted since the epoch last advanced; only {@link #countAdmission} uses it. */
  private long sinceEpoch;

  /**
   * Counts one block admitted into a full cache of {@code entries}: every {@code entries / }{@value #EPOCHS_PER_FILL}
   * of them (at least 1), the epoch advances by one.
   */
  @SuppressWarnings("NonAtomicVolatileUpdate") // one writer at a time (the caller's lock); lookups only read it
  void countAdmission(long entries) {
    if (++sinceEpoch >= Math.max(1, entries / EPOCHS_PER_FILL)) {
      sinceEpoch = 0;
      epoch++;
    }
  }

  /** The current epoch; its low 8 bits are what entries are stamped with. */
  int epoch() {
    return epoch;
  }

  /**
   * The age at {@code epoch} of the entry stamped at {@code stamps[slot]}, capped at {@value #MAX_AGE}; an older
   * stamp is rewritten to that age. Under the segment's lock.
   */
  static int ageOf(byte[] stamps, int slot, int epoch) {
    int age = (epoch - stamps[slot]) & 0xFF;
    if (age > MAX_AGE) {
      stamps[slot] = (byte) (epoch - MAX_AGE);
      return MAX_AGE;
    }
    return age;
  }

  /** Heap of {@code stamps} (array header and a byte per slot, 8-aligned), 0 for none. */
  static long heapBytes(byte[] stamps) {
    return stamps == null ? 0 : (16L + stamps.length + 7) & ~7L;
  }
}
