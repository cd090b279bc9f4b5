package dev.blockcache.bucket.policy;

import dev.blockcache.bucket.index.FrequencySketch;
import java.util.Arrays;

/**
 * A miniature of the L2's tinylfu policy ({@link FrequencyEviction}) at one fixed admission-window share, over keys
 * only: replayed on a sample of the cache's lookups, it tells what the cache would have hit with that share.
 *
 * <h2>Model</h2>
 * Three exact LRU lists share one node pool: the <b>window</b>, which every missed key enters, and the main space's
 * <b>single</b> and <b>multi</b> lists (a key read again while cached is multi from then on, as the index promotes a
 * block). When the window holds more than its share of the capacity, its least recent key leaves it: into free main
 * space if there is some; otherwise it is judged against the main victim, which is the least recent single key unless
 * the least recent multi key is colder by more than {@link FrequencyEviction#MULTI_PROTECTION}, and
 * {@link FrequencyEviction#admits} decides which of the two goes. Below its share, the window grows into the main
 * victim's place. The cache's main space evicts a sampled LRU and its window a CLOCK; exact LRU lists are what both
 * approximate, and an LRU window ranks the shares as the cache's does (docs/decisions.md, "Reaching LRU where recency
 * wins").
 *
 * <p>Layout: fixed arrays sized once, no object per key: a doubly linked list per part (head most recent) and a
 * chained hash table from key to node.
 *
 * <p>Thread-safety: not thread-safe; its owner ({@link WindowTrials}) is called under the {@link SpaceReclaimer}'s
 * lock.
 */
final class WindowTrial {
  private static final int NONE = -1;
  private static final byte WINDOW = 0;
  private static final byte SINGLE = 1;
  private static final byte MULTI = 2;

  private final double share;
  private final long[] keys;
  private final int[] newer;
  private final int[] older;
  /** The next node of a hash chain, or of the free list. */
  private final int[] chained;
  private final byte[] part;
  /** Whether the key was read again while cached: the index's priority, multi from the second read on. */
  private final boolean[] reread;
  private final int[] heads;
  private final int mask;
  private final int[] listHead = new int[3];
  private final int[] listTail = new int[3];
  private final int[] listSize = new int[3];
  private int capacity;
  private int windowCapacity;
  private int free;

  /**
   * An empty trial of the window share {@code share} that holds up to {@code capacity} keys.
   *
   * @throws IllegalArgumentException unless {@code capacity} is positive and {@code share} in [0, 1]
   */
  WindowTrial(double share, int capacity) {
    if (capacity <= 0 || !(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("a trial needs a capacity > 0 and a share in [0, 1], were " + capacity
          + " and " + share);
    }
    this.share = share;
    int nodes = capacity + 1; // a missed key enters before one leaves
    keys = new long[nodes];
    newer = new int[nodes];
    older = new int[nodes];
    chained = new int[nodes];
    part = new byte[nodes];
    reread = new boolean[nodes];
    heads = new int[Integer.highestOneBit(nodes) << 1]; // at most one key per chain on average
    mask = heads.length - 1;
    Arrays.fill(heads, NONE);
    for (int i = 0; i < nodes; i++) {
      chained[i] = i + 1 < nodes ? i + 1 : NONE;
    }
    Arrays.fill(listHead, NONE);
    Arrays.fill(listTail, NONE);
    this.capacity = capacity;
    this.windowCapacity = Math.max(1, (int) Math.round(share * capacity));
  }

  /** The window share this trial replays. */
  double share() {
    return share;
  }

  /** Keys held. */
  int size() {
    return listSize[WINDOW] + listSize[SINGLE] + listSize[MULTI];
  }

  /** Most keys held. */
  int capacity() {
    return capacity;
  }

  /**
   * One lookup of {@code key}, whose estimated frequency {@code sketch} holds (already counting this lookup): whether
   * the trial held it. A held key becomes its list's most recent (a single one moves to multi); a missed key enters
   * the window, which may send its least recent key to the main space's judgement.
   */
  boolean access(long key, FrequencySketch sketch) {
    int bucket = bucketOf(key);
    for (int n = heads[bucket]; n != NONE; n = chained[n]) {
      if (keys[n] == key) {
        byte p = part[n];
        reread[n] = true;
        unlink(n);
        push(n, p == SINGLE ? MULTI : p);
        return true;
      }
    }
    int n = free;
    free = chained[n];
    keys[n] = key;
    reread[n] = false;
    chained[n] = heads[bucket];
    heads[bucket] = n;
    push(n, WINDOW);
    if (listSize[WINDOW] > windowCapacity) {
      leaveWindow(listTail[WINDOW], sketch);
    } else if (size() > capacity) {
      remove(mainVictim(sketch)); // the window is below its share: it grows into the main victim's place
    }
    return false;
  }

  private void leaveWindow(int leaver, FrequencySketch sketch) {
    unlink(leaver);
    byte into = reread[leaver] ? MULTI : SINGLE;
    if (size() < capacity) {
      push(leaver, into);
      return;
    }
    int victim = mainVictim(sketch);
    if (victim != NONE
        && FrequencyEviction.admits(sketch.frequency(keys[leaver]), sketch.frequency(keys[victim]),
            FrequencyEviction.BIAS)) {
      remove(victim);
      push(leaver, into);
    } else {
      unhash(leaver);
    }
  }

  /** The least recent single key, unless the least recent multi key is clearly colder; NONE if main is empty. */
  private int mainVictim(FrequencySketch sketch) {
    int single = listTail[SINGLE];
    int multi = listTail[MULTI];
    if (multi == NONE) {
      return single;
    }
    if (single == NONE
        || FrequencyEviction.multiGives(sketch.frequency(keys[multi]), sketch.frequency(keys[single]))) {
      return multi;
    }
    return single;
  }

  private void remove(int n) {
    unlink(n);
    unhash(n);
  }

  /** Takes an unlinked node out of its hash chain and back to the free list. */
  private void unhash(int n) {
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
  }

  private void push(int n, byte p) {
    part[n] = p;
    newer[n] = NONE;
    older[n] = listHead[p];
    if (listHead[p] != NONE) {
      newer[listHead[p]] = n;
    }
    listHead[p] = n;
    if (listTail[p] == NONE) {
      listTail[p] = n;
    }
    listSize[p]++;
  }

  private void unlink(int n) {
    byte p = part[n];
    if (newer[n] != NONE) {
      older[newer[n]] = older[n];
    } else {
      listHead[p] = older[n];
    }
    if (older[n] != NONE) {
      newer[older[n]] = newer[n];
    } else {
      listTail[p] = newer[n];
    }
    listSize[p]--;
  }

  private int bucketOf(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 40) & mask;
  }

  @Override
  public String toString() {
    return "WindowTrial[share " + share + ", window " + listSize[WINDOW] + "/" + windowCapacity + ", single "
        + listSize[SINGLE] + ", multi " + listSize[MULTI] + ", capacity " + capacity + "]";
  }
}
