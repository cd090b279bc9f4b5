package dev.blockcache.jmh.l1;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.jmh.hbase.HBaseBlocks;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.l1.tinylfu.TinyLfuBlockCache;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.ForkJoinPool;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.FirstLevelBlockCache;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;

/**
 * The competitors of {@link L1MixedBenchmark}, each read and filled the way its project's reader does: a get builds
 * the key from the file's name and the offset, reads three bytes of a hit ({@link ThreeBytes}) and gives back the
 * reference it was handed; a put hands over a block just read "from disk" into a fresh heap array (ours:
 * {@code handOver}, the cache keeps the array; HBase: {@code cacheBlock} of an on-heap {@link HFileBlock} over an
 * array with its header in front, the cache keeps a reference and the reader releases its own; Caffeine: the array
 * is the value).
 *
 * <p>Thread-safety: immutable; the caches they create are safe for the benchmark's threads.
 */
public enum L1MixedCompetitor {
  /** Our LRU, HBase defaults, background evictor started. */
  OURS_LRU {
    @Override
    Mixed create(long capacity, Keys names) {
      LruConfig config = LruConfig.builder(capacity).minBlockSize(names.blockSize()).build();
      return new Ours(new LruBlockCache(config).start(), names);
    }
  },
  /** HBase 2.6's LruBlockCache with its eviction thread, as a RegionServer builds it. */
  HBASE_LRU {
    @Override
    Mixed create(long capacity, Keys names) {
      return new HBase(new org.apache.hadoop.hbase.io.hfile.LruBlockCache(capacity, names.blockSize(), true), names);
    }
  },
  /** Our TinyLFU, maintenance thread started. */
  OURS_TINYLFU {
    @Override
    Mixed create(long capacity, Keys names) {
      TinyLfuConfig config = TinyLfuConfig.of(capacity, TinyLfuConfig.DEFAULT_MAX_BLOCK_SIZE, names.blockSize());
      return new Ours(new TinyLfuBlockCache(config).start(), names);
    }
  },
  /**
   * Plain Caffeine, key to byte[], weighted as OURS_TINYLFU weighs its blocks, Caffeine's default executor: the
   * policy OURS_TINYLFU runs.
   */
  CAFFEINE {
    @Override
    Mixed create(long capacity, Keys names) {
      Cache<BlockKey, byte[]> cache = Caffeine.newBuilder()
          .maximumWeight(capacity)
          .weigher((BlockKey key, byte[] block) -> block.length + HeapBlock.TINYLFU_ENTRY_OVERHEAD)
          .build();
      return new Plain(cache, names);
    }
  },
  /** HBase 2.6's TinyLfuBlockCache, Caffeine maintenance on the common pool (as HBase builds it). */
  HBASE_TINYLFU {
    @Override
    Mixed create(long capacity, Keys names) {
      return new HBase(new org.apache.hadoop.hbase.io.hfile.TinyLfuBlockCache(capacity, names.blockSize(),
          TinyLfuConfig.DEFAULT_MAX_BLOCK_SIZE, ForkJoinPool.commonPool()), names);
    }
  };

  /** A cache of {@code capacity} bytes for the blocks of {@code names}. */
  abstract Mixed create(long capacity, Keys names);

  /** One competitor's get and put of block {@code i}. */
  interface Mixed extends AutoCloseable {
    /** Looks block {@code i} up; on a hit reads three of its bytes into {@code reader} and releases it. */
    boolean get(int i, ThreeBytes reader);

    /** Reads block {@code i} "from disk" into a fresh array and hands it to the cache. */
    void put(int i);

    @Override
    void close();
  }

  private static final class Ours implements Mixed {
    private static final ReadOptions READ = ReadOptions.of(BlockCategory.DATA);
    private static final CacheOptions DATA = CacheOptions.of(BlockCategory.DATA);
    private final BlockCache cache;
    private final Keys names;

    Ours(BlockCache cache, Keys names) {
      this.cache = cache;
      this.names = names;
    }

    @Override
    public boolean get(int i, ThreeBytes reader) {
      ByteBuf block = cache.getBlock(BlockKey.of(names.file(i), names.offset(i)), READ);
      if (block == null) {
        return false;
      }
      reader.last = ThreeBytes.of(block);
      block.release();
      return true;
    }

    @Override
    public void put(int i) {
      cache.handOver(BlockKey.of(names.file(i), names.offset(i)), Unpooled.wrappedBuffer(names.content(i)), DATA);
    }

    @Override
    public void close() {
      cache.close();
    }
  }

  private static final class HBase implements Mixed {
    private final FirstLevelBlockCache cache;
    private final Keys names;
    private final HFileContext context;

    HBase(FirstLevelBlockCache cache, Keys names) {
      this.cache = cache;
      this.names = names;
      this.context = new HFileContextBuilder().withBlockSize(names.blockSize()).build();
    }

    @Override
    public boolean get(int i, ThreeBytes reader) {
      BlockCacheKey key = new BlockCacheKey(names.file(i), names.offset(i), true, BlockType.DATA);
      Cacheable block = cache.getBlock(key, true, false, true);
      if (block == null) {
        return false;
      }
      reader.last = ThreeBytes.of(((HFileBlock) block).getBufferWithoutHeader());
      block.release();
      return true;
    }

    @Override
    public void put(int i) {
      BlockCacheKey key = new BlockCacheKey(names.file(i), names.offset(i), true, BlockType.DATA);
      HFileBlock block = HBaseBlocks.dataBlock(names.content(i), names.offset(i), context);
      cache.cacheBlock(key, block);
      block.release(); // the reader's reference; the cache keeps its own
    }

    @Override
    public void close() {
      cache.shutdown();
    }
  }

  private static final class Plain implements Mixed {
    private final Cache<BlockKey, byte[]> cache;
    private final Keys names;

    Plain(Cache<BlockKey, byte[]> cache, Keys names) {
      this.cache = cache;
      this.names = names;
    }

    @Override
    public boolean get(int i, ThreeBytes reader) {
      byte[] block = cache.getIfPresent(BlockKey.of(names.file(i), names.offset(i)));
      if (block == null) {
        return false;
      }
      reader.last = ThreeBytes.of(block);
      return true;
    }

    @Override
    public void put(int i) {
      cache.put(BlockKey.of(names.file(i), names.offset(i)), names.content(i));
    }

    @Override
    public void close() {
      cache.invalidateAll();
      cache.cleanUp();
    }
  }
}
