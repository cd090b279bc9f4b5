package dev.blockcache.api;

/**
 * 64-bit hashing for keys: a finaliser that spreads every input bit over the whole word, and a byte-array hash
 * built on it. Not cryptographic; stable across JVMs and releases, because persisted indexes store these hashes.
 *
 * <p>Thread-safety: stateless.
 */
final class Hashing {
  /** Multiplier of the byte-array hash: odd, with well-spread bits (the 64-bit golden ratio). */
  static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private Hashing() {}

  /** A bijective 64-bit mixer (the "Stafford variant 13" finaliser of SplitMix64). */
  static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Hashes every byte of {@code bytes}, eight at a time, then mixes in the length. */
  static long hashBytes(byte[] bytes) {
    long h = GOLDEN;
    int i = 0;
    for (; i + 8 <= bytes.length; i += 8) {
      long word = 0;
      for (int b = 0; b < 8; b++) {
        word |= (bytes[i + b] & 0xFFL) << (8 * b);
      }
      h = mix64(h ^ word) * GOLDEN;
    }
    long tail = 0;
    for (int b = 0; i < bytes.length; i++, b++) {
      tail |= (bytes[i] & 0xFFL) << (8 * b);
    }
    return mix64(h ^ tail ^ ((long) bytes.length << 56));
  }
}
