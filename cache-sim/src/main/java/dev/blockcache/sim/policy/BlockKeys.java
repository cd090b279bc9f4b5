package dev.blockcache.sim.policy;

import dev.blockcache.api.BlockKey;

/**
 * Maps a trace's 64-bit key to the {@link BlockKey} a storage engine would ask for: the high 32 bits name the file
 * ({@code f} and 8 hex digits, so every key's header has the same length in the L2), the low 32 bits are the block
 * number within it, at offset {@code blockNumber × blockSize}. The map is one-to-one, so two trace keys never share a
 * block.
 *
 * <p>Thread-safety: immutable.
 */
final class BlockKeys {
  /** Characters of every file name: {@code f} and 8 hex digits. */
  static final int FILE_NAME_LENGTH = 9;
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final int blockSize;

  BlockKeys(int blockSize) {
    this.blockSize = blockSize;
  }

  /** A new key for {@code key}, built per lookup as an engine builds it from its file and offset. */
  BlockKey of(long key) {
    return BlockKey.of(file((int) (key >>> 32)), (key & 0xFFFF_FFFFL) * blockSize);
  }

  static String file(int high) {
    char[] name = new char[FILE_NAME_LENGTH];
    name[0] = 'f';
    for (int i = 0; i < 8; i++) {
      name[8 - i] = HEX[(high >>> (4 * i)) & 0xf];
    }
    return new String(name);
  }
}
