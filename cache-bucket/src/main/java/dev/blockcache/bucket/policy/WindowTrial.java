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
 * chained hash table from key to node, linked by 16-bit node numbers (a trial holds fewer than {@value #MAX_NODES}
 * keys), with 32-bit keys: about 13 bytes per key.
 *
 * <p>Thread-safety: not thread-safe; its owner ({@link WindowTrials}) is called under the {@link SpaceReclaimer}'s
 * lock.
 */
final class WindowTrial {
  /** The null link. */
  private static final char NONE = Character.MAX_VALUE;
  /** Node numbers a trial can use: all but {@link #NONE}. */
  static final int MAX_NODES = Character.MAX_VALUE;
  private static final byte WINDOW = 0;
  private static final byte SINGLE = 1;
  private static final byte MULTI = 2;
  /** The flag bit of {@link #state}: the key was read again while cached (the index's multi, from the second read). */
  private static final byte REREAD = 4;
  /** The part bits of {@link #state}. */
  private static final byte PART = 3;

  private final double share;
  private final int[] keys;
  private final char[] newer;
  private final char[] older;
  /** The next node of a hash chain, or of the free list. */
  private final char[] chained;
  /** A node's part and its {@link #REREAD} flag. */
  private final byte[] state;
  private final char[] heads;
  private final int mask;
  private final char[] listHead = new char[3];
  private final char[] listTail = new char[3];
  private final int[] listSize = new int[3];
  private final int capacity;
  private final int windowCapacity;
  private char free;

  /**
   * An empty trial of the window share {@code share} that holds up to {@code capacity} keys.
   *
   * @throws IllegalArgumentException unless {@code capacity} is in [1, {@value #MAX_NODES} − 1) and {@code share} in
   *     [0, 1]
   */
  WindowTrial(double share, int capacity) {
    if (capacity <= 0 || capacity >= MAX_NODES - 1 || !(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("a trial needs a capacity in [1, " + (MAX_NODES - 1) + ") and a share in"
          + " [0, 1], were " + capacity + " and " + share);
    }
    this.share = share;
    int nodes = capacity + 1; // a missed key enters before one leaves
    keys = new int[nodes];
    newer = new char[nodes];
    older = new char[nodes];
    chained = new char[nodes];
    state = new byte[nodes];
    heads = new char[Integer.highestOneBit(nodes)]; // one or two keys per chain on average
    mask = heads.length - 1;
    Arrays.fill(heads, NONE);
    for (int i = 0; i < nodes; i++) {
      chained[i] = i + 1 < nodes ? (char) (i + 1) : NONE;
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

  /** Heap of the trial's arrays in bytes (array headers and the object itself not counted). */
  long heapBytes() {
    return 4L * keys.length + 2L * (newer.length + older.length + chained.length + heads.length) + state.length;
  }

  /**
   * One lookup of {@code key}, whose estimated frequency {@code sketch} holds (already counting this lookup): whether
   * the trial held it. A held key becomes its list's most recent (a single one moves to multi); a missed key enters
   * the window, which may send its least recent key to the main space's judgement.
   */
  boolean access(int key, FrequencySketch sketch) {
    int bucket = bucketOf(key);
    for (char n = heads[bucket]; n != NONE; n = chained[n]) {
      if (keys[n] == key) {
        byte p = (byte) (state[n] & PART);
        unlink(n);
        push(n, p == SINGLE ? MULTI : p);
        state[n] |= REREAD;
        return true;
      }
    }
    char n = free;
    free = chained[n];
    keys[n] = key;
    state[n] = 0;
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

  private void leaveWindow(char leaver, FrequencySketch sketch) {
    byte into = (state[leaver] & REREAD) != 0 ? MULTI : SINGLE;
    unlink(leaver);
    if (size() < capacity) {
      push(leaver, into);
      return;
    }
    char victim = mainVictim(sketch);
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
  private char mainVictim(FrequencySketch sketch) {
    char single = listTail[SINGLE];
    char multi = listTail[MULTI];
    if (multi == NONE) {
      return single;
    }
    if (single == NONE
        || FrequencyEviction.multiGives(sketch.frequency(keys[multi]), sketch.frequency(keys[single]))) {
      return multi;
    }
    return single;
  }

  private void remove(char n) {
    unlink(n);
    unhash(n);
  }

  /** Takes an unlinked node out of its hash chain and back to the free list. */
  private void unhash(char n) {
    int bucket = bucketOf(keys[n]);
    if (heads[bucket] == n) {
      heads[bucket] = chained[n];
    } else {
      char p = heads[bucket];
      while (chained[p] != n) {
        p = chained[p];
      }
      chained[p] = chained[n];
    }
    chained[n] = free;
    free = n;
  }

  /** Makes node {@code n} the most recent of part {@code p}, keeping its {@link #REREAD} flag. */
  private void push(char n, byte p) {
    state[n] = (byte) ((state[n] & REREAD) | p);
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

  private void unlink(char n) {
    int p = state[n] & PART;
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

  private int bucketOf(int key) {
    return ((key * 0x9E3779B9) >>> 16) & mask;
  }

  @Override
  public String toString() {
    return "WindowTrial[share " + share + ", window " + listSize[WINDOW] + "/" + windowCapacity + ", single "
        + listSize[SINGLE] + ", multi " + listSize[MULTI] + ", capacity " + capacity + "]";
  }
}
