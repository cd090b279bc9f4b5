package dev.blockcache.api;

/**
 * The priority a block is cached with. A block enters as {@link #SINGLE} (or {@link #MEMORY}, when its column family
 * is configured in-memory) and is promoted to {@link #MULTI} on its first hit; each priority owns a configurable
 * share of the cache ({@code hbase.lru.blockcache.*.percentage}, {@code hbase.bucketcache.*.factor}).
 *
 * <p>Thread-safety: immutable.
 */
public enum CachePriority {
  /** Accessed once since it was cached: the first to go. */
  SINGLE,
  /** Accessed more than once. */
  MULTI,
  /** Asked to stay: an in-memory column family's blocks. */
  MEMORY;

  private static final CachePriority[] VALUES = values();

  /** The number of priorities; per-priority arrays are indexed by {@link #ordinal()}. */
  public static final int COUNT = VALUES.length;

  /** The priority with the given ordinal; {@code ordinal} must be in {@code [0, COUNT)}. */
  public static CachePriority ofOrdinal(int ordinal) {
    return VALUES[ordinal];
  }
}
