package dev.blockcache.config;

/**
 * The configuration of a {@code TinyLfuBlockCache}: capacity, the largest block it takes and the expected block size.
 *
 * <p>Thread-safety: immutable.
 */
public final class TinyLfuConfig {
  public static final String MAX_BLOCK_SIZE = "hbase.tinylfu.max.block.size";
  public static final long DEFAULT_MAX_BLOCK_SIZE = 16L * 1024 * 1024;

  private final long capacity;
  private final long maxBlockSize;
  private final long minBlockSize;

  private TinyLfuConfig(long capacity, long maxBlockSize, long minBlockSize) {
    this.capacity = Checks.atLeast(LruConfig.CAPACITY + " (as bytes)", capacity, 1);
    this.maxBlockSize = Checks.between(MAX_BLOCK_SIZE, maxBlockSize, 1, Integer.MAX_VALUE);
    this.minBlockSize = Checks.between(LruConfig.MIN_BLOCK_SIZE, minBlockSize, 1, Integer.MAX_VALUE);
  }

  /**
   * The TinyLFU config {@code values} ask for, for a cache of {@code capacityBytes} (the hbase-site reader computes it
   * from {@code hfile.block.cache.size} and the heap).
   *
   * @throws ConfigException naming the first key whose value cannot be used
   */
  public static TinyLfuConfig read(SiteValues values, long capacityBytes) {
    return of(capacityBytes, values.integer(MAX_BLOCK_SIZE, DEFAULT_MAX_BLOCK_SIZE),
        values.integer(LruConfig.MIN_BLOCK_SIZE, LruConfig.DEFAULT_MIN_BLOCK_SIZE));
  }

  /** A builder with HBase's defaults for a cache of {@code capacityBytes}. */
  public static Builder builder(long capacityBytes) {
    return new Builder(capacityBytes);
  }

  /** A builder holding this config's values, to change some and build a new config. */
  public Builder toBuilder() {
    return builder(capacity).maxBlockSize(maxBlockSize).minBlockSize(minBlockSize);
  }

  /** HBase's defaults for a cache of {@code capacityBytes}. */
  public static TinyLfuConfig of(long capacityBytes) {
    return of(capacityBytes, DEFAULT_MAX_BLOCK_SIZE, LruConfig.DEFAULT_MIN_BLOCK_SIZE);
  }

  /**
   * The validated config of these values.
   *
   * @throws ConfigException naming the first key whose value is out of range
   */
  public static TinyLfuConfig of(long capacityBytes, long maxBlockSize, long minBlockSize) {
    return new TinyLfuConfig(capacityBytes, maxBlockSize, minBlockSize);
  }

  public long capacity() {
    return capacity;
  }

  /** Blocks larger than this are not cached. */
  public long maxBlockSize() {
    return maxBlockSize;
  }

  /**
   * The expected block size ({@code hbase.blockcache.minblocksize}). It changes eviction: the cache bounds Caffeine by
   * {@code capacity / (minBlockSize + HeapBlock.TINYLFU_ENTRY_OVERHEAD)} entries at first, which sizes Caffeine's
   * frequency sketch and how often it ages, and re-derives the bound from the blocks' mean heap cost when they are
   * heavier or lighter (each change restarts Caffeine's hill climber). Set it to the typical block size and the cache
   * decides exactly as plain count-bounded Caffeine does.
   */
  public long minBlockSize() {
    return minBlockSize;
  }

  /**
   * Accumulates settings; {@link #build()} validates them.
   *
   * <p>Thread-safety: not thread-safe.
   */
  public static final class Builder {
    private long capacity;
    private long maxBlockSize = DEFAULT_MAX_BLOCK_SIZE;
    private long minBlockSize = LruConfig.DEFAULT_MIN_BLOCK_SIZE;

    private Builder(long capacity) {
      this.capacity = capacity;
    }

    public Builder capacity(long bytes) {
      this.capacity = bytes;
      return this;
    }

    /** Blocks larger than this many bytes are not cached. */
    public Builder maxBlockSize(long bytes) {
      this.maxBlockSize = bytes;
      return this;
    }

    /** The expected block size in bytes ({@value LruConfig#MIN_BLOCK_SIZE}). */
    public Builder minBlockSize(long bytes) {
      this.minBlockSize = bytes;
      return this;
    }

    /**
     * The validated config.
     *
     * @throws ConfigException naming the first key whose value is out of range
     */
    public TinyLfuConfig build() {
      return new TinyLfuConfig(capacity, maxBlockSize, minBlockSize);
    }
  }
}
