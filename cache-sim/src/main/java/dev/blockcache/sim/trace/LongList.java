package dev.blockcache.sim.trace;

import java.util.Arrays;

/**
 * A growable array of primitive longs: a trace of millions of keys without a boxed {@code Long} per event.
 *
 * <p>Thread-safety: not thread-safe; one reader fills it, then it is handed over as an array.
 */
final class LongList {
  /** Elements allocated first: a small LIRS trace fits without growing. */
  private static final int INITIAL_CAPACITY = 1 << 16;

  private long[] values = new long[INITIAL_CAPACITY];
  private int size;

  void add(long value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, Math.max(INITIAL_CAPACITY, Math.multiplyExact(values.length, 2)));
    }
    values[size++] = value;
  }

  int size() {
    return size;
  }

  /** The elements added so far, as a new array of exactly {@link #size()} elements. */
  long[] toArray() {
    return Arrays.copyOf(values, size);
  }
}
