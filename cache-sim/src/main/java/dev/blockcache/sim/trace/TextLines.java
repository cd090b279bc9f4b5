package dev.blockcache.sim.trace;

import java.nio.charset.StandardCharsets;

/**
 * The line parsers of the text trace formats ({@link TraceFormat}).
 *
 * <p>Thread-safety: stateless.
 */
final class TextLines {
  /** FNV-1a 64-bit offset basis. */
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  /** FNV-1a 64-bit prime. */
  private static final long FNV_PRIME = 0x100000001b3L;
  /** Hex digits of one 64-bit half of a 128-bit key. */
  private static final int HEX_DIGITS_PER_LONG = 16;

  private TextLines() {}

  /** A decimal key as it is; any other text as its 64-bit hash. */
  static void keyOrHash(String line, LongList keys) {
    keys.add(isDecimal(line) ? Long.parseLong(line) : hash(line));
  }

  /** A LIRS block number; {@code *} (a phase separator) is no access. */
  static void lirsBlock(String line, LongList keys) {
    if (!line.equals("*")) {
      keys.add(Long.parseLong(line));
    }
  }

  /** {@code <op> 0x<hex> <size>}: the address, whatever the operation and size. */
  static void address(String line, LongList keys) {
    String[] fields = line.split("\\s+", -1);
    if (fields.length < 2 || !fields[1].startsWith("0x")) {
      throw new IllegalArgumentException("expected '<op> 0x<hex address> <size>'");
    }
    keys.add(Long.parseUnsignedLong(fields[1].substring(2), 16));
  }

  /**
   * Up to 32 hex digits: a key of at most 64 bits as it is, a longer one as the XOR of its high and low 64 bits
   * (the gradle keys are uniform hashes, so either half alone would be as good; the XOR keeps every digit).
   */
  static void hex128(String line, LongList keys) {
    int split = line.length() - HEX_DIGITS_PER_LONG;
    if (split <= 0) {
      keys.add(Long.parseUnsignedLong(line, 16));
      return;
    }
    if (split > HEX_DIGITS_PER_LONG) {
      throw new IllegalArgumentException("more than 32 hex digits");
    }
    long high = Long.parseUnsignedLong(line.substring(0, split), 16);
    long low = Long.parseUnsignedLong(line.substring(split), 16);
    keys.add(high ^ low);
  }

  private static boolean isDecimal(String line) {
    int start = line.charAt(0) == '-' ? 1 : 0;
    if (line.length() == start || line.length() - start > 18) {
      return false; // 18 digits always fit a long; longer numbers are hashed like text
    }
    for (int i = start; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** FNV-1a over the UTF-8 bytes, then a finalizer so that similar lines spread over all 64 bits. */
  static long hash(String line) {
    long h = FNV_OFFSET;
    for (byte b : line.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * FNV_PRIME;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return h;
  }
}
