package dev.blockcache.bucket.policy;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * An exact LRU cache of keys only, no blocks: the miniature simulation that tells the L2 what plain LRU would have hit
 * on the sampled keys ({@link RecencyReference}). Keys are 63-bit sample keys, never negative.
 *
 * <p>Layout: fixed arrays sized once for {@code maxEntries}, no object per key: a doubly linked recency list of node
 * indices (head most recent), and a chained hash table from key to node.
 *
 * <p>Thread-safety: not thread-safe; its owner calls it under the {@link SpaceReclaimer}'s lock.
 */
final class RecencyShadow {
  private static final int NONE = -1;

  private final long[] keys;
  private final int[] newer;
  private final int[] older;
  /** Next node in the same hash chain. */
  private final int[] chained;
  private final int[] heads;
  private final int mask;
  private int head = NONE;
  private int tail = NONE;
  private int size;
  private int capacity;
  /** Head of the list of unused nodes, linked through {@link #chained}. */
  private int free;

  /**
   * An empty shadow that holds up to {@code maxEntries} keys; its capacity starts there.
   *
   * @throws IllegalArgumentException unless {@code maxEntries} is positive
   */
  RecencyShadow(int maxEntries) {
    if (maxEntries <= 0) {
      throw new IllegalArgumentException("maxEntries must be positive, was " + maxEntries);
    }
    keys = new long[maxEntries];
    newer = new int[maxEntries];
    older = new int[maxEntries];
    chained = new int[maxEntries];
    heads = new int[Integer.highestOneBit(Math.max(1, maxEntries - 1)) << 2];
    mask = heads.length - 1;
    capacity = maxEntries;
    clear();
  }

  /** Forgets every key. */
  void clear() {
    Arrays.fill(heads, NONE);
    for (int i = 0; i < chained.length; i++) {
      chained[i] = i + 1 < chained.length ? i + 1 : NONE;
    }
    free = 0;
    head = NONE;
    tail = NONE;
    size = 0;
  }

  /** Hands every key held to {@code sink}, least recent first. */
  void forEachOldestFirst(LongConsumer sink) {
    for (int n = tail; n != NONE; n = newer[n]) {
      sink.accept(keys[n]);
    }
  }

  /** Keys held. */
  int size() {
    return size;
  }

  /** Most keys held from now on, in [1, maxEntries]; the least recent ones beyond it are dropped at once. */
  void capacity(int entries) {
    if (entries < 1 || entries > keys.length) {
      throw new IllegalArgumentException("capacity must be in [1, " + keys.length + "], was " + entries);
    }
    capacity = entries;
    while (size > capacity) {
      remove(tail);
    }
  }

  /**
   * One access of {@code key}: whether the shadow held it (an LRU hit), after which it is the most recent key; a key
   * not held enters, and the least recent key leaves if the shadow was full.
   */
  boolean access(long key) {
    int bucket = bucketOf(key);
    for (int n = heads[bucket]; n != NONE; n = chained[n]) {
      if (keys[n] == key) {
        unlink(n);
        pushHead(n);
        return true;
      }
    }
    if (size >= capacity) {
      remove(tail);
    }
    int n = free;
    free = chained[n];
    keys[n] = key;
    chained[n] = heads[bucket];
    heads[bucket] = n;
    pushHead(n);
    size++;
    return false;
  }

  private void remove(int n) {
    unlink(n);
    int bucket = bucketOf(keys[n]);
    if (heads[bucket] == n) {
      heads[bucket] = chained[n];
    } else {
      int p = heads[bucket];
      while (chained[p] != n) {
        p = chained[p];
      }
      chained[p] = chained[n];
    }
    chained[n] = free;
    free = n;
    size--;
  }

  private void pushHead(int n) {
    newer[n] = NONE;
    older[n] = head;
    if (head != NONE) {
      newer[head] = n;
    }
    head = n;
    if (tail == NONE) {
      tail = n;
    }
  }

  private void unlink(int n) {
    if (newer[n] != NONE) {
      older[newer[n]] = older[n];
    } else {
      head = older[n];
    }
    if (older[n] != NONE) {
      newer[older[n]] = newer[n];
    } else {
      tail = newer[n];
    }
  }

  private int bucketOf(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 40) & mask;
  }
}
