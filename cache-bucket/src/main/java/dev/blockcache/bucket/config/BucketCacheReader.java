package dev.blockcache.bucket.config;

import dev.blockcache.config.ConfigException;
import dev.blockcache.config.SiteValues;

/**
 * Reads the {@code hbase.bucketcache.*} keys into a {@link BucketCacheConfig}; the part of the hbase-site reader
 * ({@code dev.blockcache.site.SiteConfigReader}) that runs when {@value BucketCacheKeys#IOENGINE} is set.
 *
 * <p>Thread-safety: stateless.
 */
public final class BucketCacheReader {
  private static final long MB = 1024L * 1024;
  /**
   * Smallest largest item size an hbase-site.xml may give: a 1 KiB block plus its slot header (24 bytes and the file
   * name), rounded up to the 256-byte unit. Smaller lists cache nothing an HFile reader produces.
   */
  static final int MIN_LARGEST_ITEM = 1280;

  private BucketCacheReader() {}

  /**
   * The L2 config {@code v}'s {@code hbase.bucketcache.*} keys ask for.
   *
   * @throws ConfigException naming the first key whose value cannot be used
   */
  public static BucketCacheConfig read(SiteValues v) {
    String engine = v.text(BucketCacheKeys.IOENGINE);
    String sizeText = v.text(BucketCacheKeys.SIZE);
    if (sizeText == null) {
      throw new ConfigException(BucketCacheKeys.SIZE, "unset",
          "the L2 capacity in MB (>= 1), required when " + BucketCacheKeys.IOENGINE + " is set");
    }
    float megabytes = v.fraction(BucketCacheKeys.SIZE, 0f);
    if (!(megabytes >= 1f && megabytes <= CapacityChecks.MAX_CAPACITY_MB)) {
      throw new ConfigException(BucketCacheKeys.SIZE, sizeText, "a capacity in MB in [1, "
          + CapacityChecks.MAX_CAPACITY_MB + "] (HBase 2.x reads this key in MB, and the L2 index addresses 8 TiB;"
          + " a fraction of the heap is not accepted)");
    }
    BucketCacheConfig.Builder b = BucketCacheConfig.builder(engine, (long) (megabytes * (double) MB))
        .sizeAsWritten(sizeText);
    int[] sizes = v.integers(BucketCacheKeys.BUCKET_SIZES);
    if (sizes != null) {
      if (sizes.length > 0 && sizes[sizes.length - 1] < MIN_LARGEST_ITEM) {
        throw new ConfigException(BucketCacheKeys.BUCKET_SIZES, v.text(BucketCacheKeys.BUCKET_SIZES),
            "item sizes whose largest is at least " + MIN_LARGEST_ITEM + " bytes, so that a 1 KiB block with its"
            + " slot header fits (HBase's defaults run from 5120 to 525312)");
      }
      b.bucketSizes(sizes);
    }
    return b.writerThreads(v.smallInteger(BucketCacheKeys.WRITER_THREADS, BucketCacheConfig.DEFAULT_WRITER_THREADS))
        .writerQueueLength(v.smallInteger(BucketCacheKeys.WRITER_QUEUE_LENGTH,
            BucketCacheConfig.DEFAULT_WRITER_QUEUE_LENGTH))
        .queueAdditionWaitTimeMs(v.integer(BucketCacheKeys.QUEUE_ADDITION_WAIT_TIME,
            BucketCacheConfig.DEFAULT_QUEUE_ADDITION_WAIT_TIME_MS))
        .acceptFactor(v.fraction(BucketCacheKeys.ACCEPT_FACTOR, BucketCacheConfig.DEFAULT_ACCEPT_FACTOR))
        .minFactor(v.fraction(BucketCacheKeys.MIN_FACTOR, BucketCacheConfig.DEFAULT_MIN_FACTOR))
        .extraFreeFactor(v.fraction(BucketCacheKeys.EXTRA_FREE_FACTOR, BucketCacheConfig.DEFAULT_EXTRA_FREE_FACTOR))
        .priorityFactors(v.fraction(BucketCacheKeys.SINGLE_FACTOR, BucketCacheConfig.DEFAULT_SINGLE_FACTOR),
            v.fraction(BucketCacheKeys.MULTI_FACTOR, BucketCacheConfig.DEFAULT_MULTI_FACTOR),
            v.fraction(BucketCacheKeys.MEMORY_FACTOR, BucketCacheConfig.DEFAULT_MEMORY_FACTOR))
        .copyOnRead(v.bool(BucketCacheKeys.COPY_ON_READ, false))
        .writerInline(v.bool(BucketCacheKeys.WRITER_INLINE, false))
        .fileDirectIo(v.bool(BucketCacheKeys.FILE_DIRECT_IO, false))
        .checksumVerify(v.bool(BucketCacheKeys.CHECKSUM_VERIFY, true))
        .ioErrorsToleratedMs(v.integer(BucketCacheKeys.IO_ERRORS_TOLERATED_DURATION,
            BucketCacheConfig.DEFAULT_IO_ERRORS_TOLERATED_DURATION_MS))
        .persistentPath(v.text(BucketCacheKeys.PERSISTENT_PATH))
        .persistIntervalMs(v.integer(BucketCacheKeys.PERSIST_INTERVAL, BucketCacheConfig.DEFAULT_PERSIST_INTERVAL_MS))
        .evictionPolicy(v.text(BucketCacheKeys.EVICTION_POLICY) == null ? L2Policy.TINYLFU
            : L2Policy.parse(BucketCacheKeys.EVICTION_POLICY, v.text(BucketCacheKeys.EVICTION_POLICY)))
        .maxWriteRate(v.text(BucketCacheKeys.MAX_WRITE_RATE) == null
            || v.text(BucketCacheKeys.MAX_WRITE_RATE).trim().equals("0") ? 0 : v.bytes(BucketCacheKeys.MAX_WRITE_RATE))
        .admissionWindow(v.fraction(BucketCacheKeys.ADMISSION_WINDOW, BucketCacheConfig.DEFAULT_ADMISSION_WINDOW))
        .admissionWindowMax(v.fraction(BucketCacheKeys.ADMISSION_WINDOW_MAX,
            BucketCacheConfig.DEFAULT_ADMISSION_WINDOW_MAX))
        .build();
  }
}
