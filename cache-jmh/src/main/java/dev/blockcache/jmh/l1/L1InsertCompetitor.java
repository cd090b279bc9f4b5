package dev.blockcache.jmh.l1;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.l1.tinylfu.TinyLfuBlockCache;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.FirstLevelBlockCache;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileBlockBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.nio.ByteBuff;

/**
 * The competitors of {@link L1InsertBenchmark}, each inserting a block the way its project's reader does after
 * reading it from disk into a fresh heap array: ours through {@code cacheBlock} (the cache copies; the reader then
 * releases its buffer) or {@code handOver} (the cache takes the buffer), HBase's through {@code cacheBlock} of an
 * on-heap {@link HFileBlock} over an array with its 33-byte header in front (the cache keeps a reference; the reader
 * then releases its own).
 *
 * <p>Thread-safety: immutable; the inserters they create are safe for the benchmark's threads.
 */
public enum L1InsertCompetitor {
  /** Our LRU, HBase defaults, background evictor started; {@code cacheBlock} (copy). */
  OURS_LRU {
    @Override
    Inserter create(long capacity, Keys names) {
      return new Ours(new LruBlockCache(lruConfig(capacity, names)).start(), names, false);
    }
  },
  /** Our LRU as {@link #OURS_LRU}; {@code handOver} (the heap array is kept). */
  OURS_LRU_HAND_OVER {
    @Override
    Inserter create(long capacity, Keys names) {
      return new Ours(new LruBlockCache(lruConfig(capacity, names)).start(), names, true);
    }
  },
  /** Our TinyLFU, maintenance thread started (bounded overshoot); {@code cacheBlock} (copy). */
  OURS_TINYLFU {
    @Override
    Inserter create(long capacity, Keys names) {
      return new Ours(new TinyLfuBlockCache(tinyLfuConfig(capacity, names)).start(), names, false);
    }
  },
  /** Our TinyLFU; {@code handOver}. */
  OURS_TINYLFU_HAND_OVER {
    @Override
    Inserter create(long capacity, Keys names) {
      return new Ours(new TinyLfuBlockCache(tinyLfuConfig(capacity, names)).start(), names, true);
    }
  },
  /** HBase 2.6's LruBlockCache with its eviction thread. */
  HBASE_LRU {
    @Override
    Inserter create(long capacity, Keys names) {
      return new HBase(new org.apache.hadoop.hbase.io.hfile.LruBlockCache(capacity, names.blockSize(), true), names);
    }
  },
  /** HBase 2.6's TinyLfuBlockCache, Caffeine maintenance on the common pool (as HBase builds it). */
  HBASE_TINYLFU {
    @Override
    Inserter create(long capacity, Keys names) {
      return new HBase(new org.apache.hadoop.hbase.io.hfile.TinyLfuBlockCache(capacity, names.blockSize(),
          TinyLfuConfig.DEFAULT_MAX_BLOCK_SIZE, ForkJoinPool.commonPool()), names);
    }
  },
  /**
   * Not a cache but the floor of every insert: reads the block into a fresh array and builds its key as
   * {@link #OURS_LRU_HAND_OVER} does, and keeps both in a ring of as many slots as the capacity holds blocks,
   * overwriting the oldest (no lookup structure, no eviction work), so that the heap holds and frees blocks at the
   * rate a full cache does. What a cache adds to the allocation and garbage collection of the blocks it keeps is
   * its rate beside this one.
   */
  RING_FLOOR {
    @Override
    Inserter create(long capacity, Keys names) {
      return new Ring(capacity, names);
    }
  };

  /** A cache of {@code capacity} bytes taking blocks of {@code names}. */
  abstract Inserter create(long capacity, Keys names);

  private static LruConfig lruConfig(long capacity, Keys names) {
    return LruConfig.builder(capacity).minBlockSize(names.blockSize()).build();
  }

  private static TinyLfuConfig tinyLfuConfig(long capacity, Keys names) {
    return TinyLfuConfig.of(capacity, TinyLfuConfig.DEFAULT_MAX_BLOCK_SIZE, names.blockSize());
  }

  /** One competitor's insert of block {@code i}. */
  interface Inserter extends AutoCloseable {
    /** Reads block {@code i} "from disk" into a fresh array and caches it; returns whether the cache took it. */
    boolean insert(long i);

    @Override
    void close();
  }

  private static final class Ours implements Inserter {
    private static final CacheOptions DATA = CacheOptions.of(BlockCategory.DATA);
    private final BlockCache cache;
    private final Keys names;
    private final boolean handOver;

    Ours(BlockCache cache, Keys names, boolean handOver) {
      this.cache = cache;
      this.names = names;
      this.handOver = handOver;
    }

    @Override
    public boolean insert(long i) {
      BlockKey key = keyOf(i, names);
      ByteBuf block = readFromDisk(i, names);
      if (handOver) {
        return cache.handOver(key, block, DATA).isCached();
      }
      try {
        return cache.cacheBlock(key, block, DATA).isCached();
      } finally {
        block.release();
      }
    }

    @Override
    public void close() {
      cache.close();
    }
  }

  /** Key {@code i} of {@code names}, built from the file's name and the offset as a reader builds it per block. */
  private static BlockKey keyOf(long i, Keys names) {
    return BlockKey.of(names.file((int) (i % Keys.FILES)), (i / Keys.FILES) * names.blockSize());
  }

  /** Block {@code i} "read from disk" into a fresh heap array; the caller owns the buffer's one reference. */
  private static ByteBuf readFromDisk(long i, Keys names) {
    byte[] read = new byte[names.blockSize()];
    read[0] = (byte) i;
    return Unpooled.wrappedBuffer(read);
  }

  /**
   * The ring of {@link #RING_FLOOR}. It owns the buffer in each slot: it releases one when it overwrites it and the
   * rest on {@link #close}.
   */
  private static final class Ring implements Inserter {
    private final Keys names;
    private final BlockKey[] keys;
    private final ByteBuf[] blocks;

    Ring(long capacity, Keys names) {
      this.names = names;
      int slots = (int) Math.max(1, capacity / names.blockSize());
      this.keys = new BlockKey[slots];
      this.blocks = new ByteBuf[slots];
    }

    @Override
    public boolean insert(long i) {
      int slot = (int) (i % blocks.length);
      release(slot);
      keys[slot] = keyOf(i, names);
      blocks[slot] = readFromDisk(i, names);
      return true;
    }

    @Override
    public void close() {
      for (int slot = 0; slot < blocks.length; slot++) {
        release(slot);
      }
      Arrays.fill(keys, null);
    }

    private void release(int slot) {
      ByteBuf old = blocks[slot];
      if (old != null) {
        blocks[slot] = null;
        old.release();
      }
    }
  }

  private static final class HBase implements Inserter {
    private final FirstLevelBlockCache cache;
    private final Keys names;
    private final HFileContext context;

    HBase(FirstLevelBlockCache cache, Keys names) {
      this.cache = cache;
      this.names = names;
      this.context = new HFileContextBuilder().withBlockSize(names.blockSize()).build();
    }

    @Override
    public boolean insert(long i) {
      long offset = (i / Keys.FILES) * names.blockSize();
      BlockCacheKey key = new BlockCacheKey(names.file((int) (i % Keys.FILES)), offset, true, BlockType.DATA);
      int header = HConstants.HFILEBLOCK_HEADER_SIZE;
      byte[] read = new byte[header + names.blockSize()];
      read[header] = (byte) i;
      HFileBlock block = new HFileBlockBuilder()
          .withBlockType(BlockType.DATA)
          .withOnDiskSizeWithoutHeader(names.blockSize())
          .withUncompressedSizeWithoutHeader(names.blockSize())
          .withOnDiskDataSizeWithHeader(read.length)
          .withPrevBlockOffset(-1)
          .withOffset(offset)
          .withNextBlockOnDiskSize(-1)
          .withFillHeader(true)
          .withByteBuff(ByteBuff.wrap(ByteBuffer.wrap(read)))
          .withHFileContext(context)
          .withByteBuffAllocator(ByteBuffAllocator.HEAP)
          .withShared(false)
          .build();
      long failedBefore = cache.getStats().getFailedInserts();
      cache.cacheBlock(key, block);
      block.release(); // the reader's reference; the cache keeps its own
      return cache.getStats().getFailedInserts() == failedBefore;
    }

    @Override
    public void close() {
      cache.shutdown();
    }
  }
}
