package dev.blockcache.hbase.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.CacheStats;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;
import org.apache.hadoop.hbase.nio.ByteBuff;

/**
 * The floor of the region benchmarks: an L2 that does nothing on a get but find a block it built on insert and hand
 * it out, so that a get through it costs what HBase's read path costs around any L2. Its ratio to
 * {@link RegionCompetitor#HBASE_BUCKET} bounds what any L2 can gain on {@code HRegion.get}.
 *
 * <p>Insert: the block is serialized into a direct buffer and deserialized at once into a shared-memory block, which
 * is kept (unbounded: the benchmark's in-cache dataset only). Get: a map lookup, one retain, HBase's hit counters; no
 * serialization, no copy, no eviction. Off the heap, like the blocks of every offheap L2 it is compared with: HBase's
 * read path runs other code over a heap block's cells (array-backed), so a heap floor would measure that difference
 * rather than the L2's cost. The retain-on-hit rule is {@code LruBlockCache}'s (taken inside
 * {@code computeIfPresent}, so an evict cannot release the block between the lookup and the retain).
 *
 * <p>Ownership: each returned block carries one reference for the caller, who releases it; the kept block keeps the
 * map's own reference until {@link #evictBlock} or {@link #shutdown} releases it. Not a cache to use: a baseline.
 *
 * <p>Thread-safety: safe for concurrent use (a {@link ConcurrentHashMap} and HBase's thread-safe stats).
 */
final class PrebuiltBlockL2 implements BlockCache {
  private final ConcurrentHashMap<BlockCacheKey, Cacheable> blocks = new ConcurrentHashMap<>();
  private final CacheStats stats = new CacheStats("prebuilt-floor");

  /** Keeps an off-heap copy of {@code block}; the caller keeps (and releases) its own reference to {@code block}. */
  @Override
  public void cacheBlock(BlockCacheKey key, Cacheable block, boolean inMemory) {
    if (blocks.containsKey(key)) {
      return;
    }
    Cacheable copy = offHeapCopy(block);
    if (blocks.putIfAbsent(key, copy) != null) {
      copy.release();
    }
  }

  @Override
  public void cacheBlock(BlockCacheKey key, Cacheable block) {
    cacheBlock(key, block, false);
  }

  /** A shared-memory block over a direct buffer of its own, freed by the buffer's cleaner once unreachable. */
  private static Cacheable offHeapCopy(Cacheable block) {
    ByteBuffer serialized = ByteBuffer.allocateDirect(block.getSerializedLength());
    block.serialize(serialized, true);
    serialized.rewind();
    try {
      return block.getDeserializer().deserialize(ByteBuff.wrap(serialized), ByteBuffAllocator.HEAP);
    } catch (IOException e) {
      throw new UncheckedIOException("block of " + block.getSerializedLength() + " bytes did not deserialize", e);
    }
  }

  /** The kept block with one more reference, which the caller releases; null on a miss. */
  @Override
  public Cacheable getBlock(BlockCacheKey key, boolean caching, boolean repeat, boolean updateCacheMetrics) {
    Cacheable block = blocks.computeIfPresent(key, (k, kept) -> kept.retain());
    if (updateCacheMetrics) {
      if (block != null) {
        stats.hit(caching, key.isPrimary(), key.getBlockType());
      } else if (!repeat) {
        stats.miss(caching, key.isPrimary(), key.getBlockType());
      }
    }
    return block;
  }

  @Override
  public boolean evictBlock(BlockCacheKey key) {
    Cacheable kept = blocks.remove(key);
    if (kept != null) {
      kept.release();
    }
    return kept != null;
  }

  @Override
  public int evictBlocksByHfileName(String hfileName) {
    int evicted = 0;
    for (BlockCacheKey key : blocks.keySet()) {
      if (key.getHfileName().equals(hfileName) && evictBlock(key)) {
        evicted++;
      }
    }
    return evicted;
  }

  @Override
  public CacheStats getStats() {
    return stats;
  }

  /** Releases every kept block; blocks handed out stay valid until their holders release them. */
  @Override
  public void shutdown() {
    for (BlockCacheKey key : blocks.keySet()) {
      evictBlock(key);
    }
  }

  @Override
  public long size() {
    return getCurrentSize();
  }

  @Override
  public long getMaxSize() {
    return Long.MAX_VALUE;
  }

  @Override
  public long getFreeSize() {
    return Long.MAX_VALUE;
  }

  @Override
  public long getCurrentSize() {
    return blocks.values().stream().mapToLong(Cacheable::heapSize).sum();
  }

  @Override
  public long getCurrentDataSize() {
    return getCurrentSize();
  }

  @Override
  public long getBlockCount() {
    return blocks.size();
  }

  @Override
  public long getDataBlockCount() {
    return blocks.size();
  }

  /** Not listed: a baseline has no web UI. */
  @Override
  public Iterator<CachedBlock> iterator() {
    return Collections.emptyIterator();
  }

  @Override
  public BlockCache[] getBlockCaches() {
    return null;
  }
}
