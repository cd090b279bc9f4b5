package dev.blockcache.hbase.bench;

import java.util.Collections;
import java.util.Iterator;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.CacheStats;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;

/**
 * An L2 slot in HBase's {@code CombinedBlockCache} that holds nothing until {@link #attach} gives it the L2 under
 * test, then forwards every call to it. A region's stores take their cache when the region opens; this lets a
 * benchmark open the region (and load its index and bloom blocks into the L1) before the L2 exists, so that the heap
 * the L2 adds can be measured on its own (see {@link RegionGetBenchmark}).
 *
 * <p>Before {@link #attach} and after {@link #detach}: every get misses, every insert is dropped, sizes and counts are
 * 0. The target is never shut down here: its owner does that.
 *
 * <p>Thread-safety: {@link #attach} publishes the target through a volatile field; every other call is as
 * thread-safe as the target.
 */
final class DeferredL2 implements BlockCache {
  private final CacheStats empty = new CacheStats("deferred");
  private volatile BlockCache target;

  /** From now on, every call goes to {@code l2}. */
  void attach(BlockCache l2) {
    target = l2;
  }

  /** From now on, no call reaches the L2 attached before; blocks it handed out stay its owner's to release. */
  void detach() {
    target = null;
  }

  @Override
  public void cacheBlock(BlockCacheKey key, Cacheable block, boolean inMemory) {
    BlockCache t = target;
    if (t != null) {
      t.cacheBlock(key, block, inMemory);
    }
  }

  @Override
  public void cacheBlock(BlockCacheKey key, Cacheable block, boolean inMemory, boolean waitWhenCache) {
    BlockCache t = target;
    if (t != null) {
      t.cacheBlock(key, block, inMemory, waitWhenCache);
    }
  }

  @Override
  public void cacheBlock(BlockCacheKey key, Cacheable block) {
    BlockCache t = target;
    if (t != null) {
      t.cacheBlock(key, block);
    }
  }

  /** The target's block, which the caller releases as the target's contract says; null before attach. */
  @Override
  public Cacheable getBlock(BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics) {
    BlockCache t = target;
    return t == null ? null : t.getBlock(key, caching, repeat, updateCacheMetrics);
  }

  @Override
  public boolean evictBlock(BlockCacheKey key) {
    BlockCache t = target;
    return t != null && t.evictBlock(key);
  }

  @Override
  public int evictBlocksByHfileName(String hfileName) {
    BlockCache t = target;
    return t == null ? 0 : t.evictBlocksByHfileName(hfileName);
  }

  @Override
  public CacheStats getStats() {
    BlockCache t = target;
    return t == null ? empty : t.getStats();
  }

  /** Does not shut the target down: its owner does. */
  @Override
  public void shutdown() {
  }

  @Override
  public long size() {
    BlockCache t = target;
    return t == null ? 0 : t.size();
  }

  @Override
  public long getMaxSize() {
    BlockCache t = target;
    return t == null ? 0 : t.getMaxSize();
  }

  @Override
  public long getFreeSize() {
    BlockCache t = target;
    return t == null ? 0 : t.getFreeSize();
  }

  @Override
  public long getCurrentSize() {
    BlockCache t = target;
    return t == null ? 0 : t.getCurrentSize();
  }

  @Override
  public long getCurrentDataSize() {
    BlockCache t = target;
    return t == null ? 0 : t.getCurrentDataSize();
  }

  @Override
  public long getBlockCount() {
    BlockCache t = target;
    return t == null ? 0 : t.getBlockCount();
  }

  @Override
  public long getDataBlockCount() {
    BlockCache t = target;
    return t == null ? 0 : t.getDataBlockCount();
  }

  @Override
  public Iterator<CachedBlock> iterator() {
    BlockCache t = target;
    return t == null ? Collections.emptyIterator() : t.iterator();
  }

  @Override
  public BlockCache[] getBlockCaches() {
    return null;
  }
}
