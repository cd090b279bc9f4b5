package dev.blockcache.jmh.l2;

import dev.blockcache.jmh.hbase.HBaseBucketDrain;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;

/**
 * HBase 2.6's {@code BucketCache} on the setup's engine ({@code offheap} unless the benchmark says otherwise), built as a RegionServer builds it (default bucket
 * sizes, its own writer threads started by its constructor), holding {@code HFileBlock}s as HBase's reader caches
 * them.
 *
 * <p>Reference counting follows HBase 2.6's contract ({@link HBaseApiAdapter}): {@code cacheBlock} puts the block in
 * the RAM cache, which retains it until a writer has copied it into a slot; {@code getBlock} on the shared-memory
 * offheap engine returns a block over the slot that it retained for the caller.
 *
 * <p>Draining: see {@link HBaseBucketDrain}.
 *
 * <p>Thread-safety: as {@link L2Adapter}.
 */
final class HBaseBucketAdapter extends HBaseApiAdapter {
  private final BucketCache cache;

  /** HBase's default bucket sizes; {@code blockSize} argument: the benchmark's block size. */
  HBaseBucketAdapter(String name, L2Setup setup) throws IOException {
    this(name, setup, newCache(setup, null, setup.blockSize(), null), KeyObjects.RETAINED);
  }

  private HBaseBucketAdapter(String name, L2Setup setup, BucketCache cache, KeyObjects keyObjects) {
    super(name, setup, cache, keyObjects);
    this.cache = cache;
  }

  /** HBase's cache for {@code setup}; it persists its backing map to {@code persistencePath} unless that is null. */
  static BucketCache newCache(L2Setup setup, int[] bucketSizes, int expectedBlockSize, String persistencePath)
      throws IOException {
    return newCache(setup, bucketSizes, expectedBlockSize, persistencePath, new Configuration(false));
  }

  /**
   * As {@link #newCache(L2Setup, int[], int, String)}, with HBase's other keys taken from {@code conf} (the queue
   * wait is set on it).
   */
  static BucketCache newCache(L2Setup setup, int[] bucketSizes, int expectedBlockSize, String persistencePath,
      Configuration conf) throws IOException {
    conf.setLong(BucketCache.QUEUE_ADDITION_WAIT_TIME, setup.queueWaitMs());
    return new BucketCache(setup.ioEngine(), setup.capacity(), expectedBlockSize, bucketSizes,
        L2Setup.WRITER_THREADS, L2Setup.WRITER_QUEUE_LENGTH, persistencePath,
        BucketCache.DEFAULT_ERROR_TOLERATION_DURATION, conf);
  }

  /**
   * An adapter for heap measurement: item sizes {@code bucketSizes}, the RegionServer's default block size (64 KiB)
   * as HBase's expected block size, and no key array (the cache keeps the key objects it is given; the adapter makes
   * one per call and keeps none, so every key on the heap is the cache's).
   */
  static HBaseBucketAdapter forFootprint(String name, L2Setup setup, int[] bucketSizes) {
    return forFootprint(name, setup, bucketSizes, null);
  }

  /** As {@link #forFootprint(String, L2Setup, int[])}, persisting to {@code persistencePath} unless it is null. */
  static HBaseBucketAdapter forFootprint(String name, L2Setup setup, int[] bucketSizes, String persistencePath) {
    return forFootprint(name, setup, bucketSizes, persistencePath, new Configuration(false));
  }

  /** As {@link #forFootprint(String, L2Setup, int[], String)}, with HBase's other keys taken from {@code conf}. */
  static HBaseBucketAdapter forFootprint(String name, L2Setup setup, int[] bucketSizes, String persistencePath,
      Configuration conf) {
    try {
      return new HBaseBucketAdapter(name, setup,
          newCache(setup, bucketSizes, HConstants.DEFAULT_BLOCKSIZE, persistencePath, conf), KeyObjects.PER_CALL);
    } catch (IOException e) {
      throw new UncheckedIOException(name + ": cannot create the cache", e);
    }
  }

  @Override
  public void drain() {
    HBaseBucketDrain.await(cache, name);
  }

  @Override
  public long blockCount() {
    return cache.getBackingMap().size();
  }

  /** Blocks in slots plus those its free-space passes evicted (HBase counts no explicit evict as an eviction). */
  @Override
  public long slotted() {
    return cache.getBackingMap().size() + cache.getStats().getEvictedCount();
  }
}
