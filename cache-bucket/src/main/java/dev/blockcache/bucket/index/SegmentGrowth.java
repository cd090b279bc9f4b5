package dev.blockcache.bucket.index;

/**
 * The growth rule of a {@link Segment}'s table, and the capacity it implies: what {@link Segment} applies on insert
 * and what {@link IndexHeap#projectedHeapBytes} projects without building an index.
 *
 * <p>Thread-safety: stateless.
 */
final class SegmentGrowth {
  /** The table grows when its load would exceed 4/5: linear probing stays short (~3 probes for a hit). */
  static final int MAX_LOAD_NUMERATOR = 4;
  static final int MAX_LOAD_DENOMINATOR = 5;
  /**
   * Growth factor 5/4: after a resize the load is 0.64, so a growing table costs 16 / 0.8 to 16 / 0.64, i.e. 20 to
   * 25 B/entry. Any capacity works (see the home function). The price is more resizes while a segment grows (four
   * moves per insert amortised instead of two): an index that is cleared and refilled pays them again each time;
   * a full cache, whose segments keep their size, does not resize.
   */
  static final int GROWTH_NUMERATOR = 5;
  static final int GROWTH_DENOMINATOR = 4;

  private SegmentGrowth() {
  }

  /** Whether {@code entries} in {@code capacity} slots exceed the maximum load. */
  static boolean overloaded(int entries, int capacity) {
    return (long) entries * MAX_LOAD_DENOMINATOR > (long) capacity * MAX_LOAD_NUMERATOR;
  }

  /** The capacity a table of {@code capacity} slots grows to. */
  static int grown(int capacity) {
    return Math.max(Segment.MIN_CAPACITY, (int) ((long) capacity * GROWTH_NUMERATOR / GROWTH_DENOMINATOR));
  }

  /** The capacity in slots a new segment has after {@code entries} inserts (and no removal): the growth rule's. */
  static int capacityAfter(int entries) {
    int capacity = Segment.MIN_CAPACITY;
    while (overloaded(entries, capacity)) {
      capacity = grown(capacity);
    }
    return capacity;
  }

  /** E[capacityAfter(K)] for K ~ Poisson(mean): weights by the ratio recurrence from the mode, normalised. */
  static double expectedCapacity(double mean) {
    if (mean == 0) {
      return capacityAfter(0);
    }
    int mode = (int) Math.floor(mean);
    double weights = 1;
    double sum = capacityAfter(mode);
    double w = 1;
    for (int k = mode; k > 0 && w > 1e-15; k--) {
      w *= k / mean; // P(k-1) / P(k)
      weights += w;
      sum += w * capacityAfter(k - 1);
    }
    w = 1;
    for (int k = mode; w > 1e-15; k++) {
      w *= mean / (k + 1); // P(k+1) / P(k)
      weights += w;
      sum += w * capacityAfter(k + 1);
    }
    return sum / weights;
  }
}
