package dev.blockcache.api;

/**
 * How one {@link BlockCache#cacheBlock} call files its block: the block's category and whether it is cached with
 * {@link CachePriority#MEMORY} priority (HBase's {@code inMemory} flag).
 *
 * <p>All instances are interned: the factories never allocate. Thread-safety: immutable.
 */
public final class CacheOptions {
  private static final CacheOptions[] NORMAL = new CacheOptions[BlockCategory.COUNT];
  private static final CacheOptions[] IN_MEMORY = new CacheOptions[BlockCategory.COUNT];

  static {
    for (BlockCategory category : BlockCategory.values()) {
      NORMAL[category.ordinal()] = new CacheOptions(category, CachePriority.SINGLE);
      IN_MEMORY[category.ordinal()] = new CacheOptions(category, CachePriority.MEMORY);
    }
  }

  private final BlockCategory category;
  private final CachePriority priority;

  private CacheOptions(BlockCategory category, CachePriority priority) {
    this.category = category;
    this.priority = priority;
  }

  /** A block of {@code category} entering with single-access priority. */
  public static CacheOptions of(BlockCategory category) {
    return NORMAL[category.ordinal()];
  }

  /** The same, for a block named by its HBase type. */
  public static CacheOptions of(BlockType type) {
    return of(type.category());
  }

  /** A block of {@code category} of an in-memory column family: it enters with {@link CachePriority#MEMORY}. */
  public static CacheOptions inMemory(BlockCategory category) {
    return IN_MEMORY[category.ordinal()];
  }

  public BlockCategory category() {
    return category;
  }

  /** {@link CachePriority#SINGLE} or {@link CachePriority#MEMORY}: the priority the block enters with. */
  public CachePriority priority() {
    return priority;
  }

  @Override
  public String toString() {
    return "CacheOptions{" + category + ", " + priority + "}";
  }
}
