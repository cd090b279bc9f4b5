package dev.blockcache.bucket.index;

/**
 * The probing rule of a {@link Segment}'s open-addressing table: a {@code long[]} of 2 words per slot (fingerprint,
 * entry word), fingerprint 0 marking an empty slot; a fingerprint's probe starts at its home slot (its low 32 bits
 * scaled to the capacity) and walks forward, wrapping, to the fingerprint or the first empty slot. The segment's
 * backward-shift delete relies on this order.
 *
 * <p>Thread-safety: stateless; {@link #find} reads the table it is given without synchronisation (the segment's
 * optimistic reads validate afterwards).
 */
final class LinearProbe {
  private LinearProbe() {
  }

  /** The slot a probe for {@code fingerprint} starts at in a table of {@code capacity} slots. */
  static int home(long fingerprint, int capacity) {
    return (int) (((fingerprint & 0xFFFF_FFFFL) * capacity) >>> 32);
  }

  /** The slot holding {@code fp} in {@code t}, or {@code -(empty slot that ends the probe) - 1}. Bounded by capacity. */
  static int find(long[] t, long fp) {
    int cap = t.length >>> 1;
    int i = home(fp, cap);
    for (int n = 0; n < cap; n++) {
      long f = t[2 * i];
      if (f == fp) {
        return i;
      }
      if (f == 0) {
        return -i - 1;
      }
      if (++i == cap) {
        i = 0;
      }
    }
    return Integer.MIN_VALUE; // full table: only seen by a racing optimistic read, which then fails validation
  }
}
