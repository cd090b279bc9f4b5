package dev.blockcache.jmh.l1;

import dev.blockcache.jmh.hbase.HBaseBlocks;
import dev.blockcache.jmh.workload.KeySource;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.FirstLevelBlockCache;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;

/**
 * One of HBase 2.6's first-level caches ({@code LruBlockCache}, {@code TinyLfuBlockCache}) holding on-heap
 * {@link HFileBlock}s, as HBase's HFile reader caches them.
 *
 * <p>A get does what {@code HFileReaderImpl} does for a cached data block: it builds
 * {@code new BlockCacheKey(name, offset, true, BlockType.DATA)} (unless the keys are {@link KeySource#PREBUILT};
 * HBase has no per-file key handle, so {@link KeySource#FILE_HANDLE} builds from the name too), calls
 * {@code getBlock(key, caching=true, repeat=false, updateCacheMetrics=true)}, takes the block's buffer without its
 * header ({@code getBufferWithoutHeader()}, as the scanner's {@code updateCurrBlockRef} does), reads three bytes
 * and releases the block.
 *
 * <p>Reference counting follows HBase's reader contract: a block read from disk starts with one reference (the
 * reader's); {@code cacheBlock} takes a reference of its own for a heap block, and the reader then releases its
 * reference. {@code getBlock} retains the block for the caller inside the map's {@code computeIfPresent} (HBASE-22422),
 * and the reader releases it when done with it.
 *
 * <p>Thread-safety: as {@link L1Adapter}.
 */
final class HBaseAdapter implements L1Adapter {
  private final String name;
  private final FirstLevelBlockCache cache;
  private final Keys names;
  private final KeySource source;
  private final BlockCacheKey[] keys;

  HBaseAdapter(String name, FirstLevelBlockCache cache, Keys names, int count, KeySource source) {
    this.name = name;
    this.cache = cache;
    this.names = names;
    this.source = source;
    this.keys = new BlockCacheKey[count];
  }

  @Override
  public void populate() {
    HFileContext context = new HFileContextBuilder().withBlockSize(names.blockSize()).build();
    for (int i = 0; i < keys.length; i++) {
      keys[i] = new BlockCacheKey(names.file(i), names.offset(i), true, BlockType.DATA);
      HFileBlock block = HBaseBlocks.dataBlock(names.content(i), names.offset(i), context);
      cache.cacheBlock(keys[i], block);
      block.release(); // the reader's reference; the cache keeps its own
    }
    long count = cache.getBlockCount();
    if (count != keys.length) {
      throw new IllegalStateException(name + ": " + count + " of " + keys.length + " blocks cached");
    }
  }

  @Override
  public int get(int i, ThreeBytes reader) {
    BlockCacheKey key = source == KeySource.PREBUILT ? keys[i]
        : new BlockCacheKey(names.file(i), names.offset(i), true, BlockType.DATA);
    Cacheable block = cache.getBlock(key, true, false, true);
    if (block == null) {
      throw L1Adapter.miss(name, i);
    }
    int sum = ThreeBytes.of(((HFileBlock) block).getBufferWithoutHeader());
    block.release();
    return sum;
  }

  @Override
  public long blockCount() {
    return cache.getBlockCount();
  }

  @Override
  public void close() {
    cache.shutdown();
  }
}
