package dev.blockcache.hbase.bench;

import dev.blockcache.hbase.HBaseL2Cache;
import dev.blockcache.jmh.L2Drain;
import dev.blockcache.jmh.hbase.HBaseBucketDrain;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;

/**
 * The L2s the region benchmarks compare, each built as a RegionServer builds it and given the same capacity, writer
 * threads (3) and writer queue length (64), HBase's defaults:
 * <ul>
 *   <li>{@link #HBASE_BUCKET}: HBase 2.6.4's own {@code BucketCache} on its {@code offheap} engine, with
 *       {@link #BUCKET_SIZES} as every competitor, the baseline of every ratio;</li>
 *   <li>{@link #HBASE_FILE}: the same on HBase's {@code file:} engine in the trial's scratch directory, the baseline
 *       of {@link #OURS_FILE} when engines are compared like for like;</li>
 *   <li>{@link #OURS_OFFHEAP}: {@link HBaseL2Cache} from {@code hbase.bucketcache.ioengine=offheap}, through the
 *       {@code (Configuration)} constructor HBase's external-cache hook calls;</li>
 *   <li>{@link #OURS_FILE}: the same with {@code file:} in the trial's scratch directory (served by the page cache
 *       on this benchmark's sizes);</li>
 *   <li>{@link #OURS_OFFHEAP_COPY}: {@link #OURS_OFFHEAP} with {@code hbase.bucketcache.read.copy=true}, every hit
 *       copied onto the heap (the copy-to-heap side of HBASE-11425's comparison);</li>
 *   <li>{@link #FLOOR_PREBUILT}: not a cache but the floor ({@link PrebuiltBlockL2}): a get finds an off-heap block
 *       built on insert and retains it, so its ratio to {@link #HBASE_BUCKET} is the most any offheap L2 can gain on
 *       a get. Its heap figures count each block's on-heap objects (the block bytes are off the heap).</li>
 * </ul>
 *
 * <p>Thread-safety: stateless constants.
 */
public enum RegionCompetitor {
  HBASE_BUCKET,
  HBASE_FILE,
  OURS_OFFHEAP,
  OURS_FILE,
  OURS_OFFHEAP_COPY,
  FLOOR_PREBUILT;

  /** Writer threads of every competitor: HBase's default. */
  static final int WRITER_THREADS = 3;
  /** Writer queue length of every competitor: HBase's default. */
  static final int WRITER_QUEUE_LENGTH = 64;
  /**
   * Item sizes of every competitor: the two of HBase's default sizes a 64 KiB data block and its headers fall in.
   * With HBase's fourteen defaults, each bucket is 2 MiB (four items of the largest) and HBase's allocator gives
   * every size a bucket up front, so a {@value RegionStack#L2_MB} MiB cache would keep only a few buckets for
   * 64 KiB blocks; with these two, HBase's buckets are 388 KiB (ours 390 KiB: see {@code ItemSizes.bucketCapacity})
   * and the small cache behaves as a production-size one does.
   */
  static final int[] BUCKET_SIZES = {66560, 99328};

  /**
   * A started L2 of {@code megabytes}; a {@code file:} engine keeps its file in {@code scratch}. The caller shuts it
   * down.
   */
  BlockCache create(int megabytes, Path scratch) throws IOException {
    switch (this) {
      case HBASE_BUCKET -> {
        return new BucketCache("offheap", (long) megabytes << 20, HConstants.DEFAULT_BLOCKSIZE, BUCKET_SIZES,
            WRITER_THREADS, WRITER_QUEUE_LENGTH, null, BucketCache.DEFAULT_ERROR_TOLERATION_DURATION,
            new Configuration(false));
      }
      case HBASE_FILE -> {
        return new BucketCache("file:" + scratch.resolve("hbase-l2.cache"), (long) megabytes << 20,
            HConstants.DEFAULT_BLOCKSIZE, BUCKET_SIZES, WRITER_THREADS, WRITER_QUEUE_LENGTH, null,
            BucketCache.DEFAULT_ERROR_TOLERATION_DURATION, new Configuration(false));
      }
      case OURS_OFFHEAP -> {
        return new HBaseL2Cache(ours("offheap", megabytes));
      }
      case OURS_OFFHEAP_COPY -> {
        Configuration copying = ours("offheap", megabytes);
        copying.setBoolean("hbase.bucketcache.read.copy", true);
        return new HBaseL2Cache(copying);
      }
      case FLOOR_PREBUILT -> {
        return new PrebuiltBlockL2();
      }
      default -> {
        return new HBaseL2Cache(ours("file:" + scratch.resolve("l2.cache"), megabytes));
      }
    }
  }

  private static Configuration ours(String engine, int megabytes) {
    Configuration conf = new Configuration(false);
    conf.set("hbase.bucketcache.ioengine", engine);
    conf.set("hbase.bucketcache.size", Integer.toString(megabytes));
    conf.setInt("hbase.bucketcache.writer.threads", WRITER_THREADS);
    conf.setInt("hbase.bucketcache.writer.queuelength", WRITER_QUEUE_LENGTH);
    conf.set("hbase.bucketcache.bucket.sizes", Arrays.stream(BUCKET_SIZES).mapToObj(Integer::toString)
        .collect(Collectors.joining(",")));
    return conf;
  }

  /**
   * Returns once the writers of {@code cache}, which {@link #create} made, have stored every block offered so far (at
   * once for {@link #FLOOR_PREBUILT}, which stores on the caller's thread).
   */
  void drain(BlockCache cache) {
    if (this == HBASE_BUCKET || this == HBASE_FILE) {
      HBaseBucketDrain.await((BucketCache) cache, name());
    } else if (this != FLOOR_PREBUILT) {
      L2Drain.await(((HBaseL2Cache) cache).l2());
    }
  }
}
