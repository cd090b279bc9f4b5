package dev.blockcache.jmh.l2;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.config.BucketCacheConfig;
import dev.blockcache.hbase.HBaseL2Cache;
import dev.blockcache.jmh.hbase.HBaseBlocks;
import dev.blockcache.jmh.l1.Keys;
import java.io.IOException;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;

/**
 * blockcache's BucketCache on the {@code offheap} engine behind HBase's own {@code BlockCache} interface
 * ({@link HBaseL2Cache}, cache-hbase): HBase's {@link HFileBlock}s in, HBase's blocks out, so a get pays what a
 * RegionServer's get pays through our L2: key mapping, the zero-copy view wrapped as HBase's {@code ByteBuff}, the
 * block deserialized by HBase's deserializer, HBase's counters, and the release that gives the view back. The
 * like-for-like competitor of {@link HBaseBucketAdapter} (same keys, blocks, capacity, writers).
 *
 * <p>Reference counting: {@code cacheBlock} only reads the source block (the adapter keeps and finally releases its
 * own reference); {@code getBlock} returns a block holding one reference of our view, which the adapter releases
 * after reading its serialized length.
 *
 * <p>Thread-safety: as {@link L2Adapter}.
 */
final class OursHBaseApiAdapter implements L2Adapter {
  private final String name;
  private final HBaseL2Cache cache;
  private final Keys names;
  private final int keyCount;
  private final BlockCacheKey[] keys;
  private final HFileContext context;
  private HFileBlock[] sources;

  OursHBaseApiAdapter(String name, L2Setup setup) throws IOException {
    this.name = name;
    BucketCache l2 = BucketCache.create(BucketCacheConfig.builder("offheap", setup.capacity())
        .writerThreads(L2Setup.WRITER_THREADS)
        .writerQueueLength(L2Setup.WRITER_QUEUE_LENGTH)
        .queueAdditionWaitTimeMs(setup.queueWaitMs())
        .build());
    l2.start();
    this.cache = new HBaseL2Cache(l2);
    this.names = new Keys(setup.blockSize());
    this.keyCount = setup.keys();
    this.keys = new BlockCacheKey[keyCount];
    for (int i = 0; i < keyCount; i++) {
      keys[i] = new BlockCacheKey(names.file(i), names.offset(i), true, BlockType.DATA);
    }
    this.context = new HFileContextBuilder().withBlockSize(setup.blockSize()).build();
  }

  private HFileBlock block(int i) {
    return HBaseBlocks.dataBlock(names.content(i), names.offset(i), context);
  }

  @Override
  public void prepareSources() {
    sources = new HFileBlock[keyCount];
    for (int i = 0; i < keyCount; i++) {
      sources[i] = block(i);
    }
  }

  /** A refused block shows as a failed insertion in the L2's statistics (cacheBlock returns nothing). */
  @Override
  public boolean insert(int i) {
    long failed = cache.getStats().getFailedInserts();
    if (sources != null) {
      cache.cacheBlock(keys[i], sources[i], false, true);
    } else {
      HFileBlock block = block(i);
      cache.cacheBlock(keys[i], block, false, true);
      block.release(); // the reader's reference; our L2 copied the bytes
    }
    return cache.getStats().getFailedInserts() == failed;
  }

  @Override
  public void drain() {
    cache.l2().drainWriters();
  }

  @Override
  public int get(int i) {
    Cacheable block = cache.getBlock(keys[i], true, false, true);
    if (block == null) {
      throw L2Adapter.miss(name, i);
    }
    int length = block.getSerializedLength();
    block.release();
    return length;
  }

  @Override
  public long blockCount() {
    return cache.getBlockCount();
  }

  @Override
  public void clear() {
    for (int f = 0; f < Keys.FILES; f++) {
      cache.evictBlocksByHfileName(names.file(f));
    }
  }

  @Override
  public void close() {
    cache.shutdown();
    if (sources != null) {
      for (HFileBlock b : sources) {
        b.release();
      }
    }
  }
}
