package dev.blockcache.jmh.l2;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.hbase.HBaseL2Cache;
import dev.blockcache.jmh.L2Drain;
import java.io.IOException;

/**
 * blockcache's BucketCache on the setup's engine ({@code offheap} unless the benchmark says otherwise) behind HBase's own {@code BlockCache} interface
 * ({@link HBaseL2Cache}, cache-hbase): HBase's {@code HFileBlock}s in, HBase's blocks out, so a get pays what a
 * RegionServer's get pays through our L2: key mapping, the zero-copy view wrapped as HBase's {@code ByteBuff}, the
 * block deserialized by HBase's deserializer, HBase's counters, and the release that gives the view back. The
 * like-for-like competitor of {@link HBaseBucketAdapter} (same keys, blocks, capacity, writers).
 *
 * <p>Reference counting ({@link HBaseApiAdapter}): {@code cacheBlock} only reads the source block; {@code getBlock}
 * returns a block holding one reference of our view.
 *
 * <p>Thread-safety: as {@link L2Adapter}.
 */
final class OursHBaseApiAdapter extends HBaseApiAdapter {
  private final HBaseL2Cache cache;

  OursHBaseApiAdapter(String name, L2Setup setup) throws IOException {
    this(name, setup, newCache(setup));
  }

  private OursHBaseApiAdapter(String name, L2Setup setup, HBaseL2Cache cache) {
    super(name, setup, cache, KeyObjects.RETAINED);
    this.cache = cache;
  }

  private static HBaseL2Cache newCache(L2Setup setup) throws IOException {
    BucketCache l2 = BucketCache.create(BucketCacheConfig.builder(setup.ioEngine(), setup.capacity())
        .writerThreads(L2Setup.WRITER_THREADS)
        .writerQueueLength(L2Setup.WRITER_QUEUE_LENGTH)
        .queueAdditionWaitTimeMs(setup.queueWaitMs())
        .build());
    return new HBaseL2Cache(l2);
  }

  @Override
  public void drain() {
    L2Drain.await(cache.l2());
  }

  @Override
  public long blockCount() {
    return cache.getBlockCount();
  }

  @Override
  public long slotted() {
    return cache.getBlockCount() + cache.getStats().getEvictedCount();
  }
}
