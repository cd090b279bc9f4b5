package dev.blockcache.sim.trace;

import java.util.HashSet;
import java.util.Set;

/**
 * A cache trace read into memory: the key of every access in order. Every access is a read; a miss is followed by
 * an insert (read-through), whatever the operation the trace recorded.
 *
 * <p>Thread-safety: immutable once built (the key array is never handed out).
 */
public final class Trace {
  private final String name;
  private final long[] keys;
  private final int distinctKeys;

  /** A trace of {@code keys}, which it takes (the caller must not change the array afterwards). */
  public Trace(String name, long[] keys) {
    this.name = name;
    this.keys = keys;
    this.distinctKeys = countDistinct(keys);
  }

  private static int countDistinct(long[] keys) {
    Set<Long> seen = new HashSet<>();
    for (long key : keys) {
      seen.add(key);
    }
    return seen.size();
  }

  /** The name the trace is reported under, such as {@code lirs/multi1}. */
  public String name() {
    return name;
  }

  /** The number of accesses. */
  public int length() {
    return keys.length;
  }

  /** The key of access {@code i}, {@code 0 <= i < length()}. */
  public long key(int i) {
    return keys[i];
  }

  /** The number of distinct keys. */
  public int distinctKeys() {
    return distinctKeys;
  }
}
