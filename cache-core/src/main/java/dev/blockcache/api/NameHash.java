package dev.blockcache.api;

import java.util.Locale;

/**
 * The 64-bit hash of a file name, computed from its chars without encoding it: equal, bit for bit, to
 * {@link Hashing#hashBytes} over the name's UTF-8 bytes (persisted indexes store these hashes, so the two must never
 * differ), and refusing a name that has no UTF-8 form in the same pass.
 *
 * <p>ASCII names, the common case, are hashed eight chars to a word; from the first word holding a non-ASCII char on,
 * each char's UTF-8 bytes are fed into the same word stream one at a time. Nothing is allocated.
 *
 * <p>Thread-safety: stateless.
 */
final class NameHash {
  private static final long GOLDEN = Hashing.GOLDEN;

  private NameHash() {}

  /**
   * {@code Hashing.hashBytes(name.getBytes(UTF_8))}, without the array.
   *
   * @throws IllegalArgumentException if {@code name} holds an unpaired surrogate (it has no UTF-8 form)
   */
  static long of(String name) {
    int n = name.length();
    long h = GOLDEN;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long word = 0;
      int seen = 0;
      for (int b = 0; b < 8; b++) {
        char c = name.charAt(i + b);
        seen |= c;
        word |= (long) c << (8 * b);
      }
      if (seen >= 0x80) {
        break; // this word is not ASCII: hash it and the rest byte by byte
      }
      h = Hashing.mix64(h ^ word) * GOLDEN;
    }
    // Invariant here: chars [0, i) were ASCII and folded in whole words, so i bytes were hashed.
    long word = 0;
    int used = 0;
    long length = i;
    while (i < n) {
      char c = name.charAt(i++);
      int encoded;
      int count;
      if (c < 0x80) {
        encoded = c;
        count = 1;
      } else if (c < 0x800) {
        encoded = (0xC0 | c >>> 6) | (0x80 | (c & 0x3F)) << 8;
        count = 2;
      } else if (!Character.isSurrogate(c)) {
        encoded = (0xE0 | c >>> 12) | (0x80 | (c >>> 6 & 0x3F)) << 8 | (0x80 | (c & 0x3F)) << 16;
        count = 3;
      } else if (Character.isHighSurrogate(c) && i < n && Character.isLowSurrogate(name.charAt(i))) {
        int cp = Character.toCodePoint(c, name.charAt(i++));
        encoded = (0xF0 | cp >>> 18) | (0x80 | (cp >>> 12 & 0x3F)) << 8 | (0x80 | (cp >>> 6 & 0x3F)) << 16
            | (0x80 | (cp & 0x3F)) << 24;
        count = 4;
      } else {
        throw unpairedSurrogate(name, i - 1);
      }
      for (int b = 0; b < count; b++) {
        word |= (long) (encoded >>> (8 * b) & 0xFF) << (8 * used);
        if (++used == 8) {
          h = Hashing.mix64(h ^ word) * GOLDEN;
          word = 0;
          used = 0;
        }
      }
      length += count;
    }
    return Hashing.mix64(h ^ word ^ (length << 56));
  }

  private static IllegalArgumentException unpairedSurrogate(String name, int index) {
    return new IllegalArgumentException("BlockKey file name has an unpaired surrogate (U+"
        + Integer.toHexString(name.charAt(index)).toUpperCase(Locale.ROOT) + ") at index " + index
        + ": it has no UTF-8 form, and caches that store names in UTF-8 could not tell it from another name");
  }
}
