package dev.blockcache.api;

/**
 * What a cached block holds, as far as the cache cares: it decides which tier a block lives in (index, bloom and
 * meta blocks in L1, data blocks in L2) and how hits and misses are counted.
 *
 * <p>Thread-safety: immutable.
 */
public enum BlockCategory {
  /** Rows or cells: the bulk of a file, read once or a few times. */
  DATA,
  /** Index blocks (root, intermediate, leaf): read on almost every lookup. */
  INDEX,
  /** Bloom filter chunks and their metadata. */
  BLOOM,
  /** File info, trailer-adjacent metadata and anything else that is neither data, index nor bloom. */
  META;

  private static final BlockCategory[] VALUES = values();

  /** The number of categories; per-category counters are arrays of this length indexed by {@link #ordinal()}. */
  public static final int COUNT = VALUES.length;

  /** The category with the given ordinal; {@code ordinal} must be in {@code [0, COUNT)}. */
  public static BlockCategory ofOrdinal(int ordinal) {
    return VALUES[ordinal];
  }
}
