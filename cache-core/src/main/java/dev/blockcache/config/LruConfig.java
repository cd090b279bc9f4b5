package dev.blockcache.config;

/**
 * The configuration of an {@code LruBlockCache}: capacity, the eviction watermarks, the priority shares, in-memory
 * force mode and block size limits, with HBase's keys and defaults.
 *
 * <p>Built in code with {@link #builder(long)}, from an hbase-site.xml's values with {@link #read}, or from another
 * config with {@link #toBuilder()}; {@code build()} validates, and every error names the HBase key.
 *
 * <p>Thread-safety: immutable.
 */
public final class LruConfig {
  public static final String MIN_FACTOR = "hbase.lru.blockcache.min.factor";
  public static final String ACCEPTABLE_FACTOR = "hbase.lru.blockcache.acceptable.factor";
  public static final String HARD_CAPACITY_LIMIT_FACTOR = "hbase.lru.blockcache.hard.capacity.limit.factor";
  public static final String SINGLE_PERCENTAGE = "hbase.lru.blockcache.single.percentage";
  public static final String MULTI_PERCENTAGE = "hbase.lru.blockcache.multi.percentage";
  public static final String MEMORY_PERCENTAGE = "hbase.lru.blockcache.memory.percentage";
  public static final String IN_MEMORY_FORCE_MODE = "hbase.lru.rs.inmemoryforcemode";
  public static final String MAX_BLOCK_SIZE = "hbase.lru.max.block.size";
  public static final String MIN_BLOCK_SIZE = "hbase.blockcache.minblocksize";

  public static final float DEFAULT_MIN_FACTOR = 0.95f;
  public static final float DEFAULT_ACCEPTABLE_FACTOR = 0.99f;
  public static final float DEFAULT_HARD_CAPACITY_LIMIT_FACTOR = 1.2f;
  public static final float DEFAULT_SINGLE_PERCENTAGE = 0.25f;
  public static final float DEFAULT_MULTI_PERCENTAGE = 0.50f;
  public static final float DEFAULT_MEMORY_PERCENTAGE = 0.25f;
  public static final long DEFAULT_MAX_BLOCK_SIZE = 16L * 1024 * 1024;
  public static final long DEFAULT_MIN_BLOCK_SIZE = 64 * 1024;

  /** The capacity key the caller's capacity came from, for error messages. */
  static final String CAPACITY = "hfile.block.cache.size";

  private final long capacity;
  private final float minFactor;
  private final float acceptableFactor;
  private final float hardCapacityLimitFactor;
  private final float singlePercentage;
  private final float multiPercentage;
  private final float memoryPercentage;
  private final boolean inMemoryForceMode;
  private final long maxBlockSize;
  private final long minBlockSize;

  private LruConfig(Builder b) {
    this.capacity = Checks.atLeast(CAPACITY + " (as bytes)", b.capacity, 1);
    this.minFactor = Checks.fraction(MIN_FACTOR, b.minFactor);
    this.acceptableFactor = Checks.fraction(ACCEPTABLE_FACTOR, b.acceptableFactor);
    if (minFactor > acceptableFactor) {
      throw new ConfigException(MIN_FACTOR, minFactor,
          "a fraction in (0, 1] no larger than " + ACCEPTABLE_FACTOR + " (" + acceptableFactor + ")");
    }
    if (!(b.hardCapacityLimitFactor >= 1f && b.hardCapacityLimitFactor <= 10f)) {
      throw new ConfigException(HARD_CAPACITY_LIMIT_FACTOR, b.hardCapacityLimitFactor, "a factor in [1, 10]");
    }
    this.hardCapacityLimitFactor = b.hardCapacityLimitFactor;
    this.singlePercentage = Checks.share(SINGLE_PERCENTAGE, b.singlePercentage);
    this.multiPercentage = Checks.share(MULTI_PERCENTAGE, b.multiPercentage);
    this.memoryPercentage = Checks.share(MEMORY_PERCENTAGE, b.memoryPercentage);
    Checks.sumToOne(new String[] {SINGLE_PERCENTAGE, MULTI_PERCENTAGE, MEMORY_PERCENTAGE},
        new float[] {singlePercentage, multiPercentage, memoryPercentage});
    this.inMemoryForceMode = b.inMemoryForceMode;
    this.maxBlockSize = Checks.between(MAX_BLOCK_SIZE, b.maxBlockSize, 1, Integer.MAX_VALUE);
    this.minBlockSize = Checks.between(MIN_BLOCK_SIZE, b.minBlockSize, 1, Integer.MAX_VALUE);
  }

  /** A builder with HBase's defaults for a cache of {@code capacityBytes}. */
  public static Builder builder(long capacityBytes) {
    return new Builder(capacityBytes);
  }

  /**
   * The LRU config {@code values} ask for, for a cache of {@code capacityBytes} (the hbase-site reader computes it from
   * {@code hfile.block.cache.size} and the heap).
   *
   * @throws ConfigException naming the first key whose value cannot be used
   */
  public static LruConfig read(SiteValues values, long capacityBytes) {
    return builder(capacityBytes)
        .minFactor(values.fraction(MIN_FACTOR, DEFAULT_MIN_FACTOR))
        .acceptableFactor(values.fraction(ACCEPTABLE_FACTOR, DEFAULT_ACCEPTABLE_FACTOR))
        .hardCapacityLimitFactor(values.fraction(HARD_CAPACITY_LIMIT_FACTOR, DEFAULT_HARD_CAPACITY_LIMIT_FACTOR))
        .priorityShares(values.fraction(SINGLE_PERCENTAGE, DEFAULT_SINGLE_PERCENTAGE),
            values.fraction(MULTI_PERCENTAGE, DEFAULT_MULTI_PERCENTAGE),
            values.fraction(MEMORY_PERCENTAGE, DEFAULT_MEMORY_PERCENTAGE))
        .inMemoryForceMode(values.bool(IN_MEMORY_FORCE_MODE, false))
        .maxBlockSize(values.integer(MAX_BLOCK_SIZE, DEFAULT_MAX_BLOCK_SIZE))
        .minBlockSize(values.integer(MIN_BLOCK_SIZE, DEFAULT_MIN_BLOCK_SIZE))
        .build();
  }

  /** A builder holding this config's values, to change some and build a new config. */
  public Builder toBuilder() {
    return builder(capacity)
        .minFactor(minFactor)
        .acceptableFactor(acceptableFactor)
        .hardCapacityLimitFactor(hardCapacityLimitFactor)
        .priorityShares(singlePercentage, multiPercentage, memoryPercentage)
        .inMemoryForceMode(inMemoryForceMode)
        .maxBlockSize(maxBlockSize)
        .minBlockSize(minBlockSize);
  }

  public long capacity() {
    return capacity;
  }

  /** Bytes above which eviction starts: {@code capacity × acceptableFactor}, the factor read as written. */
  public long acceptableSize() {
    return (long) (capacity * decimal(acceptableFactor));
  }

  /** Bytes an eviction pass frees down to: {@code capacity × minFactor}. */
  public long minSize() {
    return (long) (capacity * decimal(minFactor));
  }

  /** Bytes above which inserts are refused: {@code acceptableSize() × hardCapacityLimitFactor}. */
  public long hardLimit() {
    return (long) (acceptableSize() * decimal(hardCapacityLimitFactor));
  }

  /** The decimal a float factor was written as (0.95f is 0.949999988 as a double; 0.95 is meant). */
  private static double decimal(float factor) {
    return Double.parseDouble(Float.toString(factor));
  }

  /** Eviction frees down to {@code capacity * minFactor}. */
  public float minFactor() {
    return minFactor;
  }

  /** Eviction starts above {@code capacity * acceptableFactor}. */
  public float acceptableFactor() {
    return acceptableFactor;
  }

  /** Inserts are refused above {@code capacity * acceptableFactor * hardCapacityLimitFactor}. */
  public float hardCapacityLimitFactor() {
    return hardCapacityLimitFactor;
  }

  public float singlePercentage() {
    return singlePercentage;
  }

  public float multiPercentage() {
    return multiPercentage;
  }

  public float memoryPercentage() {
    return memoryPercentage;
  }

  /** Whether in-memory blocks may evict every single- and multi-access block. */
  public boolean inMemoryForceMode() {
    return inMemoryForceMode;
  }

  /** Blocks larger than this are not cached. */
  public long maxBlockSize() {
    return maxBlockSize;
  }

  /** The expected block size, used to presize the map. */
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
    private float minFactor = DEFAULT_MIN_FACTOR;
    private float acceptableFactor = DEFAULT_ACCEPTABLE_FACTOR;
    private float hardCapacityLimitFactor = DEFAULT_HARD_CAPACITY_LIMIT_FACTOR;
    private float singlePercentage = DEFAULT_SINGLE_PERCENTAGE;
    private float multiPercentage = DEFAULT_MULTI_PERCENTAGE;
    private float memoryPercentage = DEFAULT_MEMORY_PERCENTAGE;
    private boolean inMemoryForceMode;
    private long maxBlockSize = DEFAULT_MAX_BLOCK_SIZE;
    private long minBlockSize = DEFAULT_MIN_BLOCK_SIZE;

    private Builder(long capacity) {
      this.capacity = capacity;
    }

    public Builder capacity(long bytes) {
      this.capacity = bytes;
      return this;
    }

    public Builder minFactor(float value) {
      this.minFactor = value;
      return this;
    }

    public Builder acceptableFactor(float value) {
      this.acceptableFactor = value;
      return this;
    }

    public Builder hardCapacityLimitFactor(float value) {
      this.hardCapacityLimitFactor = value;
      return this;
    }

    /** The three priority shares; they must sum to 1. */
    public Builder priorityShares(float single, float multi, float memory) {
      this.singlePercentage = single;
      this.multiPercentage = multi;
      this.memoryPercentage = memory;
      return this;
    }

    public Builder inMemoryForceMode(boolean value) {
      this.inMemoryForceMode = value;
      return this;
    }

    public Builder maxBlockSize(long bytes) {
      this.maxBlockSize = bytes;
      return this;
    }

    public Builder minBlockSize(long bytes) {
      this.minBlockSize = bytes;
      return this;
    }

    /**
     * The validated config.
     *
     * @throws ConfigException naming the first key whose value is out of range
     */
    public LruConfig build() {
      return new LruConfig(this);
    }
  }
}
