package dev.blockcache.bucket;

import java.util.Arrays;

/**
 * The tinylfu policy's admission window: the blocks most recently admitted into a full cache, oldest first. In a
 * bucket cache the window is a logical region, not a space of its own: its blocks sit in ordinary slots of their size
 * class, and the window only remembers which blocks they are, so that eviction leaves them alone
 * ({@link #contains}) until they are the oldest and leave it ({@link #oldestFingerprint}, {@link #removeOldest}).
 * What happens to a block leaving the window (it stays, or it goes instead of the main space's victim) is
 * {@link FrequencyEviction}'s decision.
 *
 * <h2>Layout</h2>
 * A block is remembered by where the index keeps it, not by its key: its fingerprint and its segment (see
 * {@code BlockIndex}), enough to look it up and to remove it.
 * <pre>
 *   ring:    fingerprints[i], segments[i]  for i = head, head + 1, ... (mod capacity), size entries, oldest first
 *   members: open-addressing set of the same fingerprints (0 = empty), linear probing, load &lt;= 1/2
 * </pre>
 * Both grow by doubling and never shrink; per window block they cost 12 B (ring) plus 16-32 B (set), so a window of
 * 1% of the cache costs at most ~0.44 B per cached block. A block the index no longer holds (evicted by file, by
 * the allocation fallback, or replaced) stays in the ring until it is the oldest; its owner skips it then.
 *
 * <p>Thread-safety: not thread-safe; its owner ({@link FrequencyEviction}) uses it under the
 * {@link SpaceReclaimer}'s lock, including from victim filters that run under an index segment's lock.
 */
final class AdmissionWindow {
  /** Initial ring capacity in blocks: 16 keeps an unused window at a few hundred bytes. */
  static final int INITIAL_CAPACITY = 16;

  private long[] fingerprints = new long[INITIAL_CAPACITY];
  private int[] segments = new int[INITIAL_CAPACITY];
  private int head;
  private int size;
  private long[] members = new long[2 * INITIAL_CAPACITY];

  /** Blocks in the window. */
  int size() {
    return size;
  }

  /** Whether the block stored under {@code fingerprint} is in the window. */
  boolean contains(long fingerprint) {
    long[] m = members;
    int mask = m.length - 1;
    for (int i = home(fingerprint, mask); ; i = (i + 1) & mask) {
      long f = m[i];
      if (f == fingerprint) {
        return true;
      }
      if (f == 0) {
        return false;
      }
    }
  }

  /**
   * Appends the block stored under ({@code segment}, {@code fingerprint}) as the newest; a block already in the
   * window keeps its place.
   *
   * @throws IllegalArgumentException if {@code fingerprint} is 0 (no index fingerprint is)
   */
  void add(long fingerprint, int segment) {
    if (fingerprint == 0) {
      throw new IllegalArgumentException("fingerprint 0 marks an empty slot");
    }
    if (contains(fingerprint)) {
      return;
    }
    if (size == fingerprints.length) {
      grow();
    }
    int tail = (head + size) & (fingerprints.length - 1);
    fingerprints[tail] = fingerprint;
    segments[tail] = segment;
    size++;
    insertMember(fingerprint);
  }

  /** The fingerprint of the oldest block. @throws IllegalStateException if the window is empty */
  long oldestFingerprint() {
    checkNotEmpty();
    return fingerprints[head];
  }

  /** The index segment of the oldest block. @throws IllegalStateException if the window is empty */
  int oldestSegment() {
    checkNotEmpty();
    return segments[head];
  }

  /** Forgets the oldest block. @throws IllegalStateException if the window is empty */
  void removeOldest() {
    checkNotEmpty();
    long fingerprint = fingerprints[head];
    head = (head + 1) & (fingerprints.length - 1);
    size--;
    deleteMember(fingerprint);
  }

  /** Estimated heap of the window's arrays. */
  long heapBytes() {
    return 16L * 3 + 8L * fingerprints.length + 4L * segments.length + 8L * members.length;
  }

  private void checkNotEmpty() {
    if (size == 0) {
      throw new IllegalStateException("the admission window is empty");
    }
  }

  private void grow() {
    int capacity = fingerprints.length;
    long[] f = new long[2 * capacity];
    int[] s = new int[2 * capacity];
    for (int i = 0; i < size; i++) {
      f[i] = fingerprints[(head + i) & (capacity - 1)];
      s[i] = segments[(head + i) & (capacity - 1)];
    }
    fingerprints = f;
    segments = s;
    head = 0;
    members = new long[4 * capacity];
    for (int i = 0; i < size; i++) {
      insertMember(f[i]);
    }
  }

  private void insertMember(long fingerprint) {
    int mask = members.length - 1;
    int i = home(fingerprint, mask);
    while (members[i] != 0) {
      i = (i + 1) & mask;
    }
    members[i] = fingerprint;
  }

  /** Removes {@code fingerprint} from the set and shifts later members of its cluster back (no tombstones). */
  private void deleteMember(long fingerprint) {
    long[] m = members;
    int mask = m.length - 1;
    int hole = home(fingerprint, mask);
    while (m[hole] != fingerprint) {
      hole = (hole + 1) & mask;
    }
    for (int j = (hole + 1) & mask; m[j] != 0; j = (j + 1) & mask) {
      int home = home(m[j], mask);
      // m[j] may move to the hole if its home is not in the cyclic range (hole, j].
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        m[hole] = m[j];
        hole = j;
      }
    }
    m[hole] = 0;
  }

  /** A fingerprint's home slot: its bits mixed (fingerprints of one file share their top bits). */
  private static int home(long fingerprint, int mask) {
    long h = fingerprint * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  @Override
  public String toString() {
    return "AdmissionWindow[size=" + size + ", capacity=" + fingerprints.length + "]";
  }

  /** For tests: the fingerprints, oldest first. */
  long[] fingerprintsOldestFirst() {
    long[] out = new long[size];
    for (int i = 0; i < size; i++) {
      out[i] = fingerprints[(head + i) & (fingerprints.length - 1)];
    }
    return Arrays.copyOf(out, size);
  }
}
