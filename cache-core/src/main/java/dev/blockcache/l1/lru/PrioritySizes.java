package dev.blockcache.l1.lru;

import dev.blockcache.api.CachePriority;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The bytes an {@link LruBlockCache} accounts to each priority: what was inserted at a priority less what was removed
 * at it, with the bytes of promoted entries moved from single to multi.
 *
 * <p>A promotion is one total of its own rather than a move between two: a hit that promotes updates one atomic
 * (the hit path's instructions and machine code are what the cache's get speed and its inlining into callers come
 * from). An entry removed after its promotion is subtracted from multi, which the promoted total balances.
 *
 * <p>Thread-safety: every method may be called from any thread; the totals of different priorities read at one
 * moment are not a snapshot of one instant.
 */
final class PrioritySizes {
  private static final int SINGLE = CachePriority.SINGLE.ordinal();
  private static final int MULTI = CachePriority.MULTI.ordinal();

  /** Bytes inserted at each priority less bytes removed at it. */
  private final AtomicLongArray added = new AtomicLongArray(CachePriority.COUNT);
  /** Bytes of the entries promoted from single to multi. */
  private final AtomicLong promoted = new AtomicLong();

  /** Adds {@code bytes} (negative for a removal) to priority {@code p} (an ordinal). */
  void add(int p, long bytes) {
    added.addAndGet(p, bytes);
  }

  /** Moves {@code bytes} of a promoted entry from single to multi. */
  void promote(long bytes) {
    promoted.addAndGet(bytes);
  }

  /** The bytes accounted to priority {@code p} (an ordinal) now. */
  long of(int p) {
    long moved = p == SINGLE ? -promoted.get() : p == MULTI ? promoted.get() : 0;
    return added.get(p) + moved;
  }
}
