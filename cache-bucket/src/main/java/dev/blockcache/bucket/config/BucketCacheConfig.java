package dev.blockcache.bucket.config;

import static dev.blockcache.bucket.config.BucketCacheKeys.ACCEPT_FACTOR;
import static dev.blockcache.bucket.config.BucketCacheKeys.ADMISSION_WINDOW;
import static dev.blockcache.bucket.config.BucketCacheKeys.ADMISSION_WINDOW_MAX;
import static dev.blockcache.bucket.config.BucketCacheKeys.EVICTION_POLICY;
import static dev.blockcache.bucket.config.BucketCacheKeys.EXTRA_FREE_FACTOR;
import static dev.blockcache.bucket.config.BucketCacheKeys.IOENGINE;
import static dev.blockcache.bucket.config.BucketCacheKeys.IO_ERRORS_TOLERATED_DURATION;
import static dev.blockcache.bucket.config.BucketCacheKeys.MAX_WRITE_RATE;
import static dev.blockcache.bucket.config.BucketCacheKeys.MEMORY_FACTOR;
import static dev.blockcache.bucket.config.BucketCacheKeys.MIN_FACTOR;
import static dev.blockcache.bucket.config.BucketCacheKeys.MULTI_FACTOR;
import static dev.blockcache.bucket.config.BucketCacheKeys.PERSISTENT_PATH;
import static dev.blockcache.bucket.config.BucketCacheKeys.PERSIST_INTERVAL;
import static dev.blockcache.bucket.config.BucketCacheKeys.QUEUE_ADDITION_WAIT_TIME;
import static dev.blockcache.bucket.config.BucketCacheKeys.SINGLE_FACTOR;
import static dev.blockcache.bucket.config.BucketCacheKeys.WRITER_QUEUE_LENGTH;
import static dev.blockcache.bucket.config.BucketCacheKeys.WRITER_THREADS;

import dev.blockcache.bucket.alloc.ItemSizes;
import dev.blockcache.config.Checks;
import dev.blockcache.config.ConfigException;

/**
 * The configuration of the L2 {@code BucketCache}, with HBase's keys, meanings and defaults: the IO engine, the
 * capacity, the bucket item sizes, the writer threads and their queues, the eviction watermarks and priority shares.
 *
 * <p>Built in code with {@link #builder(String, long)}, from an hbase-site.xml's values by {@link BucketCacheReader},
 * or from another config with {@link #toBuilder()}; {@code build()} validates and every error names the HBase key, the
 * value and what is accepted. Rules about item sizes and buckets are the allocator's ({@link ItemSizes}); the
 * rule that inline writes need a memory engine is checked by the cache against its engine.
 *
 * <p>Thread-safety: immutable.
 */
public final class BucketCacheConfig {
  public static final float DEFAULT_ADMISSION_WINDOW = 0.01f;
  /**
   * Largest window share by default: the largest accepted, 0.9. Where recency alone decides, a cache of a few hundred
   * blocks still lost to plain LRU with 0.8 of it in the window (docs/decisions.md#l2-admission-and-eviction).
   */
  public static final float DEFAULT_ADMISSION_WINDOW_MAX = 0.9f;
  /**
   * Largest window share either key accepts: 0.9 keeps a tenth of the cache for the blocks that won the frequency
   * test. The window is a bit of each index entry, so its share costs no heap.
   */
  public static final float MAX_ADMISSION_WINDOW = 0.9f;
  public static final long DEFAULT_IO_ERRORS_TOLERATED_DURATION_MS = 60_000;
  public static final long DEFAULT_PERSIST_INTERVAL_MS = 1000;
  /** Longest checkpoint period accepted: one day. */
  public static final long MAX_PERSIST_INTERVAL_MS = 86_400_000L;
  /** HBase's default item sizes: 4 KiB .. 512 KiB, each plus 1 KiB for the block header and slack. */
  private static final int[] DEFAULT_BUCKET_SIZES = {
      5 * 1024, 9 * 1024, 17 * 1024, 33 * 1024, 41 * 1024, 49 * 1024, 57 * 1024, 65 * 1024, 97 * 1024,
      129 * 1024, 193 * 1024, 257 * 1024, 385 * 1024, 513 * 1024};

  /** HBase's default item sizes ({@code hbase.bucketcache.bucket.sizes} unset): a copy, ascending. */
  public static int[] defaultBucketSizes() {
    return DEFAULT_BUCKET_SIZES.clone();
  }
  public static final int DEFAULT_WRITER_THREADS = 3;
  public static final int DEFAULT_WRITER_QUEUE_LENGTH = 64;
  public static final long DEFAULT_QUEUE_ADDITION_WAIT_TIME_MS = 0;
  public static final float DEFAULT_ACCEPT_FACTOR = 0.95f;
  public static final float DEFAULT_MIN_FACTOR = 0.85f;
  public static final float DEFAULT_EXTRA_FREE_FACTOR = 0.10f;
  public static final float DEFAULT_SINGLE_FACTOR = 0.25f;
  public static final float DEFAULT_MULTI_FACTOR = 0.50f;
  public static final float DEFAULT_MEMORY_FACTOR = 0.25f;

  /** The most writer threads accepted: more only contend on 2..64-core machines. */
  public static final int MAX_WRITER_THREADS = 64;

  private final String ioEngine;
  private final long capacity;
  /** {@value BucketCacheKeys#SIZE} as the site wrote it, or null when the capacity was given in code. */
  private final String sizeAsWritten;
  private final int[] bucketSizes;
  /** Derived from capacity and sizes once: the choice weighs every candidate bucket. */
  private final int bucketCapacity;
  private final int writerThreads;
  private final int writerQueueLength;
  private final long queueAdditionWaitTimeMs;
  private final float acceptFactor;
  private final float minFactor;
  private final float extraFreeFactor;
  private final float singleFactor;
  private final float multiFactor;
  private final float memoryFactor;
  private final boolean copyOnRead;
  private final boolean writerInline;
  private final boolean fileDirectIo;
  private final boolean checksumVerify;
  private final long ioErrorsToleratedMs;
  private final String persistentPath;
  private final long persistIntervalMs;
  private final L2Policy evictionPolicy;
  private final long maxWriteRate;
  private final float admissionWindow;
  private final float admissionWindowMax;

  private BucketCacheConfig(Builder b) {
    if (b.ioEngine == null || b.ioEngine.isBlank()) {
      throw new ConfigException(IOENGINE, b.ioEngine,
          "an engine: heap, offheap, file:/path, files:/p1,/p2 or mmap:/path");
    }
    this.ioEngine = b.ioEngine.trim();
    this.bucketSizes = CapacityChecks.bucketSizes(b.bucketSizes);
    this.sizeAsWritten = b.sizeAsWritten;
    this.capacity = CapacityChecks.capacity(b.capacity, bucketSizes,
        b.sizeAsWritten != null ? b.sizeAsWritten : b.capacity + " bytes");
    this.bucketCapacity = ItemSizes.bucketCapacity(bucketSizes, capacity);
    this.writerThreads = (int) Checks.between(WRITER_THREADS, b.writerThreads, 1, MAX_WRITER_THREADS);
    this.writerQueueLength = (int) Checks.between(WRITER_QUEUE_LENGTH, b.writerQueueLength, 1, 1 << 20);
    this.queueAdditionWaitTimeMs = Checks.between(QUEUE_ADDITION_WAIT_TIME, b.queueAdditionWaitTimeMs, 0, 60_000);
    this.acceptFactor = Checks.fraction(ACCEPT_FACTOR, b.acceptFactor);
    this.minFactor = Checks.fraction(MIN_FACTOR, b.minFactor);
    if (minFactor > acceptFactor) {
      throw new ConfigException(MIN_FACTOR, minFactor,
          "a fraction in (0, 1] no larger than " + ACCEPT_FACTOR + " (" + acceptFactor + ")");
    }
    if (!(b.extraFreeFactor >= 0f && b.extraFreeFactor < 1f)) {
      throw new ConfigException(EXTRA_FREE_FACTOR, b.extraFreeFactor, "a fraction in [0, 1)");
    }
    this.extraFreeFactor = b.extraFreeFactor;
    this.singleFactor = Checks.share(SINGLE_FACTOR, b.singleFactor);
    this.multiFactor = Checks.share(MULTI_FACTOR, b.multiFactor);
    this.memoryFactor = Checks.share(MEMORY_FACTOR, b.memoryFactor);
    Checks.sumToOne(new String[] {SINGLE_FACTOR, MULTI_FACTOR, MEMORY_FACTOR},
        new float[] {singleFactor, multiFactor, memoryFactor});
    this.copyOnRead = b.copyOnRead;
    this.writerInline = b.writerInline;
    this.fileDirectIo = b.fileDirectIo;
    this.checksumVerify = b.checksumVerify;
    this.ioErrorsToleratedMs = Checks.between(IO_ERRORS_TOLERATED_DURATION, b.ioErrorsToleratedMs, 0, Long.MAX_VALUE);
    if (b.persistentPath != null && b.persistentPath.isBlank()) {
      throw new ConfigException(PERSISTENT_PATH, b.persistentPath, "unset, or a file path for the index checkpoint");
    }
    this.persistentPath = b.persistentPath == null ? null : b.persistentPath.trim();
    this.persistIntervalMs = Checks.between(PERSIST_INTERVAL, b.persistIntervalMs, 1, MAX_PERSIST_INTERVAL_MS);
    if (b.evictionPolicy == null) {
      throw new ConfigException(EVICTION_POLICY, null, "tinylfu or hbase");
    }
    this.evictionPolicy = b.evictionPolicy;
    this.maxWriteRate = Checks.between(MAX_WRITE_RATE, b.maxWriteRate, 0, Long.MAX_VALUE);
    if (!(b.admissionWindow >= 0f && b.admissionWindow <= MAX_ADMISSION_WINDOW)) {
      throw new ConfigException(ADMISSION_WINDOW, b.admissionWindow, "a share in [0, " + MAX_ADMISSION_WINDOW + "]");
    }
    this.admissionWindow = b.admissionWindow;
    if (!(b.admissionWindowMax >= admissionWindow && b.admissionWindowMax <= MAX_ADMISSION_WINDOW)) {
      throw new ConfigException(ADMISSION_WINDOW_MAX, b.admissionWindowMax, "a share in [" + admissionWindow + ", "
          + MAX_ADMISSION_WINDOW + "]: at least " + ADMISSION_WINDOW + " (" + admissionWindow + ")");
    }
    this.admissionWindowMax = b.admissionWindowMax;
  }


  /**
   * A builder with HBase's defaults.
   *
   * @param ioEngine the {@value BucketCacheKeys#IOENGINE} value, e.g. {@code offheap} or {@code file:/data/cache.bin}
   * @param capacityBytes the capacity in bytes ({@value BucketCacheKeys#SIZE} is in MB; the reader converts)
   */
  public static Builder builder(String ioEngine, long capacityBytes) {
    return new Builder(ioEngine, capacityBytes);
  }

  /** A builder holding this config's values, to change some (a capacity, a path) and build a new config. */
  public Builder toBuilder() {
    return builder(ioEngine, capacity)
        .sizeAsWritten(sizeAsWritten)
        .bucketSizes(bucketSizes)
        .writerThreads(writerThreads)
        .writerQueueLength(writerQueueLength)
        .queueAdditionWaitTimeMs(queueAdditionWaitTimeMs)
        .acceptFactor(acceptFactor)
        .minFactor(minFactor)
        .extraFreeFactor(extraFreeFactor)
        .priorityFactors(singleFactor, multiFactor, memoryFactor)
        .copyOnRead(copyOnRead)
        .writerInline(writerInline)
        .fileDirectIo(fileDirectIo)
        .checksumVerify(checksumVerify)
        .ioErrorsToleratedMs(ioErrorsToleratedMs)
        .persistentPath(persistentPath)
        .persistIntervalMs(persistIntervalMs)
        .evictionPolicy(evictionPolicy)
        .maxWriteRate(maxWriteRate)
        .admissionWindow(admissionWindow)
        .admissionWindowMax(admissionWindowMax);
  }

  public String ioEngine() {
    return ioEngine;
  }

  public long capacity() {
    return capacity;
  }

  /**
   * The capacity as an error about it quotes it: {@value BucketCacheKeys#SIZE} as the site wrote it when the config
   * was read from one ({@link Builder#sizeAsWritten}), else the capacity in bytes.
   */
  public String sizeAsWritten() {
    return sizeAsWritten != null ? sizeAsWritten : capacity + " bytes";
  }

  /** The item sizes, ascending; a copy. */
  public int[] bucketSizes() {
    return bucketSizes.clone();
  }

  /** Bytes of one bucket, as the allocator cuts this capacity and these item sizes ({@link ItemSizes#bucketCapacity}). */
  public int bucketCapacity() {
    return bucketCapacity;
  }

  public int writerThreads() {
    return writerThreads;
  }

  public int writerQueueLength() {
    return writerQueueLength;
  }

  /** How long cacheBlock waits for room in a full writer queue before failing; 0 never waits. */
  public long queueAdditionWaitTimeMs() {
    return queueAdditionWaitTimeMs;
  }

  /** Eviction starts once used bytes pass {@code acceptFactor × capacity}. */
  public float acceptFactor() {
    return acceptFactor;
  }

  /** Eviction frees down to {@code minFactor × capacity}. */
  public float minFactor() {
    return minFactor;
  }

  /** Each eviction frees this fraction of the capacity beyond what it must, so that passes are not back to back. */
  public float extraFreeFactor() {
    return extraFreeFactor;
  }

  public float singleFactor() {
    return singleFactor;
  }

  public float multiFactor() {
    return multiFactor;
  }

  public float memoryFactor() {
    return memoryFactor;
  }

  /** Whether gets return heap copies instead of zero-copy views. */
  public boolean copyOnRead() {
    return copyOnRead;
  }

  /**
   * Whether {@code cacheBlock} writes blocks into their slots on the calling thread ({@value BucketCacheKeys#WRITER_INLINE},
   * default false: HBase's writer threads); only memory engines accept it.
   */
  public boolean writerInline() {
    return writerInline;
  }

  /** Whether {@code file:}/{@code files:} engines use O_DIRECT ({@value BucketCacheKeys#FILE_DIRECT_IO}, default false). */
  public boolean fileDirectIo() {
    return fileDirectIo;
  }

  /** Whether reads from file engines verify the block's CRC32C ({@value BucketCacheKeys#CHECKSUM_VERIFY}, default true). */
  public boolean checksumVerify() {
    return checksumVerify;
  }

  /** How long IO errors may last before the L2 disables itself, ms ({@value BucketCacheKeys#IO_ERRORS_TOLERATED_DURATION}). */
  public long ioErrorsToleratedMs() {
    return ioErrorsToleratedMs;
  }

  /** The {@value BucketCacheKeys#PERSISTENT_PATH} value, or {@code null} when the index is not persisted. */
  public String persistentPath() {
    return persistentPath;
  }

  /** The admission and eviction policy ({@value BucketCacheKeys#EVICTION_POLICY}). */
  public L2Policy evictionPolicy() {
    return evictionPolicy;
  }

  /** The most bytes per second the L2 writes ({@value BucketCacheKeys#MAX_WRITE_RATE}); 0 when unbounded. */
  public long maxWriteRate() {
    return maxWriteRate;
  }

  /** The admission window's smallest share of the cached blocks ({@value BucketCacheKeys#ADMISSION_WINDOW}); 0 for none. */
  public float admissionWindow() {
    return admissionWindow;
  }

  /** The admission window's largest share of the cached blocks ({@value BucketCacheKeys#ADMISSION_WINDOW_MAX}). */
  public float admissionWindowMax() {
    return admissionWindowMax;
  }

  public long persistIntervalMs() {
    return persistIntervalMs;
  }

  /**
   * Accumulates settings; {@link #build()} validates them.
   *
   * <p>Thread-safety: not thread-safe.
   */
  public static final class Builder {
    private String ioEngine;
    private long capacity;
    private String sizeAsWritten;
    private int[] bucketSizes = DEFAULT_BUCKET_SIZES;
    private int writerThreads = DEFAULT_WRITER_THREADS;
    private int writerQueueLength = DEFAULT_WRITER_QUEUE_LENGTH;
    private long queueAdditionWaitTimeMs = DEFAULT_QUEUE_ADDITION_WAIT_TIME_MS;
    private float acceptFactor = DEFAULT_ACCEPT_FACTOR;
    private float minFactor = DEFAULT_MIN_FACTOR;
    private float extraFreeFactor = DEFAULT_EXTRA_FREE_FACTOR;
    private float singleFactor = DEFAULT_SINGLE_FACTOR;
    private float multiFactor = DEFAULT_MULTI_FACTOR;
    private float memoryFactor = DEFAULT_MEMORY_FACTOR;
    private boolean copyOnRead;
    private boolean fileDirectIo;
    private boolean writerInline;
    private boolean checksumVerify = true;
    private long ioErrorsToleratedMs = DEFAULT_IO_ERRORS_TOLERATED_DURATION_MS;
    private String persistentPath;
    private long persistIntervalMs = DEFAULT_PERSIST_INTERVAL_MS;
    private L2Policy evictionPolicy = L2Policy.TINYLFU;
    private long maxWriteRate;
    private float admissionWindow = DEFAULT_ADMISSION_WINDOW;
    private float admissionWindowMax = DEFAULT_ADMISSION_WINDOW_MAX;

    private Builder(String ioEngine, long capacity) {
      this.ioEngine = ioEngine;
      this.capacity = capacity;
    }

    public Builder ioEngine(String value) {
      this.ioEngine = value;
      return this;
    }

    /** Sets the capacity in bytes, and forgets a {@link #sizeAsWritten} that described another one. */
    public Builder capacity(long bytes) {
      if (bytes != capacity) {
        this.sizeAsWritten = null;
      }
      this.capacity = bytes;
      return this;
    }

    /**
     * The text of {@value BucketCacheKeys#SIZE} the capacity was read from, quoted back by errors about the capacity
     * instead of the bytes it became (which engines round to whole buckets); null for a capacity given in code.
     */
    public Builder sizeAsWritten(String text) {
      this.sizeAsWritten = text;
      return this;
    }

    public Builder bucketSizes(int... sizes) {
      this.bucketSizes = sizes == null ? null : sizes.clone();
      return this;
    }

    public Builder writerThreads(int value) {
      this.writerThreads = value;
      return this;
    }

    public Builder writerQueueLength(int value) {
      this.writerQueueLength = value;
      return this;
    }

    public Builder queueAdditionWaitTimeMs(long value) {
      this.queueAdditionWaitTimeMs = value;
      return this;
    }

    public Builder acceptFactor(float value) {
      this.acceptFactor = value;
      return this;
    }

    public Builder minFactor(float value) {
      this.minFactor = value;
      return this;
    }

    public Builder extraFreeFactor(float value) {
      this.extraFreeFactor = value;
      return this;
    }

    /** The three priority shares; they must sum to 1. */
    public Builder priorityFactors(float single, float multi, float memory) {
      this.singleFactor = single;
      this.multiFactor = multi;
      this.memoryFactor = memory;
      return this;
    }

    public Builder copyOnRead(boolean value) {
      this.copyOnRead = value;
      return this;
    }

    public Builder writerInline(boolean value) {
      this.writerInline = value;
      return this;
    }

    public Builder fileDirectIo(boolean value) {
      this.fileDirectIo = value;
      return this;
    }

    public Builder checksumVerify(boolean value) {
      this.checksumVerify = value;
      return this;
    }

    public Builder ioErrorsToleratedMs(long value) {
      this.ioErrorsToleratedMs = value;
      return this;
    }

    /** The index checkpoint file; {@code null} disables persistence. */
    public Builder persistentPath(String value) {
      this.persistentPath = value;
      return this;
    }

    public Builder persistIntervalMs(long value) {
      this.persistIntervalMs = value;
      return this;
    }

    public Builder evictionPolicy(L2Policy value) {
      this.evictionPolicy = value;
      return this;
    }

    /** Bytes per second; 0 sets no bound. */
    public Builder maxWriteRate(long bytesPerSecond) {
      this.maxWriteRate = bytesPerSecond;
      return this;
    }

    /**
     * The window's smallest share of the cached blocks, in [0, {@value BucketCacheConfig#MAX_ADMISSION_WINDOW}];
     * 0 for no window.
     */
    public Builder admissionWindow(float share) {
      this.admissionWindow = share;
      return this;
    }

    /** The window's largest share, in [{@link #admissionWindow}, {@value BucketCacheConfig#MAX_ADMISSION_WINDOW}]. */
    public Builder admissionWindowMax(float share) {
      this.admissionWindowMax = share;
      return this;
    }

    /**
     * The validated config.
     *
     * @throws ConfigException naming the first key whose value is out of range
     */
    public BucketCacheConfig build() {
      return new BucketCacheConfig(this);
    }
  }
}
