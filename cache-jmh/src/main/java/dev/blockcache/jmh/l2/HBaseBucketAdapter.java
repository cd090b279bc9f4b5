package dev.blockcache.jmh.l2;

import dev.blockcache.jmh.hbase.HBaseBlocks;
import dev.blockcache.jmh.hbase.HBaseBucketDrain;
import dev.blockcache.jmh.l1.Keys;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;

/**
 * HBase 2.6's {@code BucketCache} on its {@code offheap} engine, built as a RegionServer builds it (default bucket
 * sizes, its own writer threads started by its constructor), holding {@link HFileBlock}s as HBase's reader caches
 * them.
 *
 * <p>Reference counting follows HBase 2.6's contract. A block read from disk starts with one reference (the
 * reader's); {@code cacheBlock} puts it in the RAM cache, which retains it until a writer has copied it into a slot,
 * and the reader releases its own reference (a prepared source block keeps the adapter's reference instead, so it can
 * be offered again). {@code getBlock} on the shared-memory offheap engine returns a block over the slot that it
 * retained for the caller; the caller releases it, as the adapter does after reading its serialized length.
 *
 * <p>Draining: see {@link HBaseBucketDrain}.
 *
 * <p>Thread-safety: as {@link L2Adapter}.
 */
final class HBaseBucketAdapter implements L2Adapter {
  private final String name;
  private final BucketCache cache;
  private final Keys names;
  private final int keyCount;
  /** The key objects, made once so that a get allocates none; null when keys are made per call (footprint). */
  private final BlockCacheKey[] keys;
  private final HFileContext context;
  private HFileBlock[] sources;

  /** HBase's default bucket sizes; {@code blockSize} argument: the benchmark's block size. */
  HBaseBucketAdapter(String name, L2Setup setup) throws IOException {
    this(name, setup, null, setup.blockSize(), true);
  }

  private HBaseBucketAdapter(String name, L2Setup setup, int[] bucketSizes, int expectedBlockSize,
      boolean retainKeys) throws IOException {
    this.name = name;
    Configuration conf = new Configuration(false);
    conf.setLong(BucketCache.QUEUE_ADDITION_WAIT_TIME, setup.queueWaitMs());
    this.cache = new BucketCache("offheap", setup.capacity(), expectedBlockSize, bucketSizes,
        L2Setup.WRITER_THREADS, L2Setup.WRITER_QUEUE_LENGTH, null, BucketCache.DEFAULT_ERROR_TOLERATION_DURATION,
        conf);
    this.names = new Keys(setup.blockSize());
    this.keyCount = setup.keys();
    this.keys = retainKeys ? new BlockCacheKey[keyCount] : null;
    for (int i = 0; retainKeys && i < keyCount; i++) {
      keys[i] = newKey(i);
    }
    this.context = new HFileContextBuilder().withBlockSize(setup.blockSize()).build();
  }

  /**
   * An adapter for heap measurement: item sizes {@code bucketSizes}, the RegionServer's default block size (64 KiB)
   * as HBase's expected block size, and no key array (the cache keeps the key objects it is given; the adapter makes
   * one per call and keeps none, so every key on the heap is the cache's).
   */
  static HBaseBucketAdapter forFootprint(String name, L2Setup setup, int[] bucketSizes) {
    try {
      return new HBaseBucketAdapter(name, setup, bucketSizes, HConstants.DEFAULT_BLOCKSIZE, false);
    } catch (IOException e) {
      throw new UncheckedIOException(name + ": cannot create the cache", e);
    }
  }

  private BlockCacheKey newKey(int i) {
    return new BlockCacheKey(names.file(i), names.offset(i), true, BlockType.DATA);
  }

  private BlockCacheKey key(int i) {
    return keys != null ? keys[i] : newKey(i);
  }

  /** An on-heap DATA block with key {@code i}'s content, holding one reference: the caller's. */
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

  /** HBase's cacheBlock returns nothing; a refused block shows as a failed insertion in its statistics. */
  @Override
  public boolean insert(int i) {
    long failed = cache.getStats().getFailedInserts();
    if (sources != null) {
      cache.cacheBlock(key(i), sources[i], false, true);
    } else {
      HFileBlock block = block(i);
      cache.cacheBlock(key(i), block, false, true);
      block.release(); // the reader's reference; the RAM cache holds its own until the block is written
    }
    return cache.getStats().getFailedInserts() == failed;
  }

  @Override
  public void drain() {
    HBaseBucketDrain.await(cache, name);
  }

  @Override
  public int get(int i) {
    Cacheable block = cache.getBlock(key(i), true, false, true);
    if (block == null) {
      throw L2Adapter.miss(name, i);
    }
    int length = block.getSerializedLength();
    block.release();
    return length;
  }

  @Override
  public long blockCount() {
    return cache.getBackingMap().size();
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
