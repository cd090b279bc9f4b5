package dev.blockcache.jmh.l2;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.jmh.L2Drain;
import dev.blockcache.jmh.l1.Keys;
import dev.blockcache.jmh.l1.OurKeys;
import dev.blockcache.jmh.l1.ThreeBytes;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.UnaryOperator;

/**
 * blockcache's {@link BucketCache} on the setup's engine ({@code offheap} unless the benchmark says otherwise). A get is {@link BucketCache#getBlock} with a
 * counted DATA lookup of a key come by as the setup says ({@link OurKeys}); the returned block (a zero-copy view, or a
 * heap copy with {@code read.copy}) is owned by the caller, so the adapter releases it once after reading three of
 * its bytes. An insert is {@code cacheBlock}, which copies:
 * the adapter keeps (and finally releases) its own source buffers; or, with {@link Insert#HAND_OVER},
 * {@code handOver} of a new reference to the (never written) source buffer, which the cache keeps until the block is
 * in its slot and then releases, as HBase's cache retains and releases the blocks it is given.
 *
 * <p>Thread-safety: as {@link L2Adapter}.
 */
final class OursBucketAdapter implements L2Adapter {
  /** How blocks are offered: copied by {@code cacheBlock}, or handed over with {@code handOver}. */
  enum Insert { COPY, HAND_OVER }

  private static final ReadOptions READ = ReadOptions.of(BlockCategory.DATA);
  private static final CacheOptions WRITE = CacheOptions.of(BlockCategory.DATA);

  private final String name;
  private final BucketCache cache;
  private final Keys names;
  private final int keyCount;
  private final Insert insert;
  /** The key objects inserts use, made once; null when keys are made per call (footprint). */
  private final BlockKey[] keys;
  /** The keys gets look up. */
  private final OurKeys lookups;
  private ByteBuf[] sources;

  private OursBucketAdapter(String name, BucketCache cache, L2Setup setup, boolean retainKeys, Insert insert) {
    this.name = name;
    this.insert = insert;
    this.cache = cache;
    this.names = new Keys(setup.blockSize());
    this.keyCount = setup.keys();
    this.keys = retainKeys ? new BlockKey[keyCount] : null;
    this.lookups = new OurKeys(names, keyCount, setup.keySource());
    for (int i = 0; retainKeys && i < keyCount; i++) {
      keys[i] = BlockKey.of(names.file(i), names.offset(i));
    }
  }

  /** Our cache for {@code setup}, with the benchmark's common settings changed by {@code variant}. */
  static OursBucketAdapter create(String name, L2Setup setup, UnaryOperator<BucketCacheConfig.Builder> variant)
      throws IOException {
    return create(name, setup, variant, Insert.COPY);
  }

  /** As {@link #create(String, L2Setup, UnaryOperator)}, offering blocks as {@code insert} says. */
  static OursBucketAdapter create(String name, L2Setup setup, UnaryOperator<BucketCacheConfig.Builder> variant,
      Insert insert) throws IOException {
    BucketCacheConfig config = variant.apply(config(setup)).build();
    return new OursBucketAdapter(name, started(config), setup, true, insert);
  }

  /**
   * An adapter for heap measurement: item sizes {@code bucketSizes}, and no key array (it would be counted as the
   * cache's heap); keys are made per call and dropped.
   */
  static OursBucketAdapter forFootprint(String name, L2Setup setup, int[] bucketSizes) {
    BucketCacheConfig config = config(setup).bucketSizes(bucketSizes).build();
    try {
      return new OursBucketAdapter(name, started(config), setup, false, Insert.COPY);
    } catch (IOException e) {
      throw new UncheckedIOException(name + ": cannot create the cache", e);
    }
  }

  private static BucketCacheConfig.Builder config(L2Setup setup) {
    return BucketCacheConfig.builder(setup.ioEngine(), setup.capacity())
        .writerThreads(L2Setup.WRITER_THREADS)
        .writerQueueLength(L2Setup.WRITER_QUEUE_LENGTH)
        .queueAdditionWaitTimeMs(setup.queueWaitMs());
  }

  private static BucketCache started(BucketCacheConfig config) throws IOException {
    return BucketCache.create(config); // started: writer threads running
  }

  private BlockKey key(int i) {
    return keys != null ? keys[i] : BlockKey.of(names.file(i), names.offset(i));
  }

  @Override
  public void prepareSources() {
    sources = SourceBuffers.wrapAll(names, keyCount);
  }

  @Override
  public boolean insert(int i) {
    if (insert == Insert.HAND_OVER) {
      ByteBuf block = sources != null ? sources[i].retain() : SourceBuffers.wrap(names, i);
      return cache.handOver(key(i), block, WRITE) == CacheResult.CACHED; // the reference is the cache's now
    }
    if (sources != null) {
      return cache.cacheBlock(key(i), sources[i], WRITE) == CacheResult.CACHED;
    }
    ByteBuf block = SourceBuffers.wrap(names, i);
    try {
      return cache.cacheBlock(key(i), block, WRITE) == CacheResult.CACHED;
    } finally {
      block.release();
    }
  }

  @Override
  public void drain() {
    L2Drain.await(cache);
  }

  @Override
  public int get(int i) {
    ByteBuf block = lookups.byHandle() ? cache.getBlock(lookups.file(i), lookups.offset(i), READ)
        : cache.getBlock(lookups.key(i), READ);
    if (block == null) {
      throw L2Adapter.miss(name, i);
    }
    int sum = ThreeBytes.of(block);
    block.release();
    return sum;
  }

  @Override
  public long blockCount() {
    return cache.blockCount();
  }

  @Override
  public long slotted() {
    return cache.blockCount() + cache.stats().evictedBlockCount();
  }

  @Override
  public void clear() {
    for (int f = 0; f < Keys.FILES; f++) {
      cache.evictBlocksByFile(names.file(f));
    }
  }

  @Override
  public void close() {
    cache.close();
    SourceBuffers.releaseAll(sources);
  }
}
