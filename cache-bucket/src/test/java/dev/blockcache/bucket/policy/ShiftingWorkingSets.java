package dev.blockcache.bucket.policy;

import java.util.SplittableRandom;

/**
 * A workload where recency wins: lookups drawn uniformly from a working set that fits the cache, replaced by an
 * unseen one every few passes over it. Under a small admission window the newcomers lose the frequency test against
 * the last set's well-counted keys for most of each phase; a large window (and plain LRU) keeps them at once.
 */
final class ShiftingWorkingSets {
  private final int setSize;
  private final int lookupsPerPhase;
  private final SplittableRandom random;
  private long phase;
  private int lookupsInPhase;

  /** Sets of {@code setSize} keys, each looked up {@code lookupsPerPhase} times in all before the next. */
  ShiftingWorkingSets(int setSize, int lookupsPerPhase, long seed) {
    this.setSize = setSize;
    this.lookupsPerPhase = lookupsPerPhase;
    this.random = new SplittableRandom(seed);
  }

  /** The next key looked up (positive). */
  long next() {
    if (++lookupsInPhase > lookupsPerPhase) {
      lookupsInPhase = 1;
      phase++;
    }
    return 1 + phase * setSize + random.nextInt(setSize);
  }
}
