package dev.blockcache.jmh.l1;

import java.util.SplittableRandom;

/**
 * How the key set of an L1 or L2 benchmark maps to (file, offset) pairs, identical for every competitor: key {@code i} is
 * the block at offset {@code (i / FILES) * blockSize} of file {@code i % FILES}. File names are one {@code String}
 * instance per file, as a storage engine that reuses its open file's name would pass them.
 *
 * <p>Thread-safety: immutable.
 */
public final class Keys {
  /** Files the key set is spread over: a few dozen open HFiles' worth. */
  public static final int FILES = 32;

  private final String[] files = new String[FILES];
  private final int blockSize;

  public Keys(int blockSize) {
    this.blockSize = blockSize;
    SplittableRandom random = new SplittableRandom(42);
    for (int f = 0; f < FILES; f++) {
      // HFile names are 32 hex digits.
      files[f] = String.format("%016x%016x", random.nextLong(), random.nextLong());
    }
  }

  public int blockSize() {
    return blockSize;
  }

  public String file(int i) {
    return files[i % FILES];
  }

  public long offset(int i) {
    return (long) (i / FILES) * blockSize;
  }

  /**
   * The block content for key {@code i}: {@code blockSize} bytes, its index in the first four, and a byte of it in the
   * middle and at the end, so that a get that reads the first, middle and last byte reads this block's own.
   */
  public byte[] content(int i) {
    byte[] block = new byte[blockSize];
    block[0] = (byte) (i >>> 24);
    block[1] = (byte) (i >>> 16);
    block[2] = (byte) (i >>> 8);
    block[3] = (byte) i;
    block[blockSize >>> 1] = (byte) i;
    block[blockSize - 1] = (byte) (i >>> 8);
    return block;
  }
}
