package dev.blockcache.api;

/**
 * How one {@link BlockCache#getBlock} call is counted: the category of the block looked for, whether the caller
 * would cache the block on a miss (HBase's "caching" request, the base of {@code blockCacheExpressHitPercent}),
 * whether this is a repeated lookup of a miss already counted, and whether it is counted at all.
 *
 * <p>All instances are interned: the factories and the {@code with...} methods never allocate, so options can be
 * built on the hot path. Thread-safety: immutable.
 */
public final class ReadOptions {
  private static final int NOT_CACHING = 1;
  private static final int REPEAT = 2;
  private static final int NO_STATS = 4;
  private static final int FLAG_COMBINATIONS = 8;
  private static final ReadOptions[] INTERNED = new ReadOptions[BlockCategory.COUNT * FLAG_COMBINATIONS];

  static {
    for (BlockCategory category : BlockCategory.values()) {
      for (int flags = 0; flags < FLAG_COMBINATIONS; flags++) {
        INTERNED[category.ordinal() * FLAG_COMBINATIONS + flags] = new ReadOptions(category, flags);
      }
    }
  }

  private final BlockCategory category;
  private final int flags;

  private ReadOptions(BlockCategory category, int flags) {
    this.category = category;
    this.flags = flags;
  }

  /** A counted, caching lookup of a block of {@code category}: what a reader on its normal path asks for. */
  public static ReadOptions of(BlockCategory category) {
    return INTERNED[category.ordinal() * FLAG_COMBINATIONS];
  }

  /** The same, for a block named by its HBase type. */
  public static ReadOptions of(BlockType type) {
    return of(type.category());
  }

  /** These options, for a caller that will not cache the block if it misses (a scan that bypasses the cache). */
  public ReadOptions notCaching() {
    return with(NOT_CACHING);
  }

  /** These options, for a lookup that repeats one whose miss was already counted: a miss is not counted again. */
  public ReadOptions repeat() {
    return with(REPEAT);
  }

  /** These options, for a lookup that must not change any hit or miss counter (an internal probe). */
  public ReadOptions withoutStats() {
    return with(NO_STATS);
  }

  private ReadOptions with(int flag) {
    return INTERNED[category.ordinal() * FLAG_COMBINATIONS + (flags | flag)];
  }

  public BlockCategory category() {
    return category;
  }

  /** Whether the caller caches the block on a miss. */
  public boolean caching() {
    return (flags & NOT_CACHING) == 0;
  }

  /** Whether this lookup repeats one already counted. */
  public boolean isRepeat() {
    return (flags & REPEAT) != 0;
  }

  /** Whether hit and miss counters are updated. */
  public boolean updatesStats() {
    return (flags & NO_STATS) == 0;
  }

  @Override
  public String toString() {
    return "ReadOptions{" + category + (caching() ? "" : ", notCaching") + (isRepeat() ? ", repeat" : "")
        + (updatesStats() ? "" : ", withoutStats") + "}";
  }
}
