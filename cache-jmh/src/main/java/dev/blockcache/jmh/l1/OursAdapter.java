package dev.blockcache.jmh.l1;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.jmh.workload.KeySource;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A blockcache {@link BlockCache} (ours), read with a counted, caching DATA lookup in one of two ways
 * ({@link Access}): {@link BlockCache#getBlock}, whose view the caller owns and the adapter releases once after
 * reading it, or the scoped {@link BlockCache#read}, where the cache lends the block to the thread's reader and
 * releases nothing on the caller's side.
 *
 * <p>Thread-safety: as {@link L1Adapter}.
 */
final class OursAdapter implements L1Adapter {
  /** How a get reaches the block. */
  enum Access {
    /** {@code getBlock}, three bytes read, {@code release()}. */
    GET,
    /**
     * {@code read(key, options, reader)}, or {@code read(file, offset, options, reader)} when keys come by the file's
     * handle: the reader reads three bytes of the lent block.
     */
    SCOPED_READ
  }

  private static final ReadOptions READ = ReadOptions.of(BlockCategory.DATA);
  private static final CacheOptions WRITE = CacheOptions.of(BlockCategory.DATA);

  private final String name;
  private final BlockCache cache;
  private final Access access;
  private final Keys names;
  private final int count;
  private final OurKeys keys;

  OursAdapter(String name, BlockCache cache, Access access, Keys names, int count, KeySource source) {
    this.name = name;
    this.cache = cache;
    this.access = access;
    this.names = names;
    this.count = count;
    this.keys = new OurKeys(names, count, source);
  }

  @Override
  public void populate() {
    for (int i = 0; i < count; i++) {
      BlockKey key = BlockKey.of(names.file(i), names.offset(i));
      ByteBuf block = Unpooled.wrappedBuffer(names.content(i));
      try {
        CacheResult result = cache.cacheBlock(key, block, WRITE);
        if (!result.isCached()) {
          throw new IllegalStateException(name + ": block " + i + " not cached: " + result);
        }
      } finally {
        block.release();
      }
    }
  }

  @Override
  public int get(int i, ThreeBytes reader) {
    if (access == Access.SCOPED_READ) {
      if (!scopedRead(i, reader)) {
        throw L1Adapter.miss(name, i);
      }
      return reader.last;
    }
    ByteBuf block = keys.byHandle() ? cache.getBlock(keys.file(i), keys.offset(i), READ)
        : cache.getBlock(keys.key(i), READ);
    if (block == null) {
      throw L1Adapter.miss(name, i);
    }
    int sum = ThreeBytes.of(block);
    block.release();
    return sum;
  }

  /** The scoped read of key {@code i}: by its file's handle and offset when gets come by the handle, else by key. */
  private boolean scopedRead(int i, ThreeBytes reader) {
    if (keys.byHandle()) {
      return cache.read(keys.file(i), keys.offset(i), READ, reader);
    }
    return cache.read(keys.key(i), READ, reader);
  }

  @Override
  public long blockCount() {
    return cache.blockCount();
  }

  @Override
  public void close() {
    cache.close();
  }
}
