package dev.blockcache.jmh.l1;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A blockcache {@link BlockCache} (ours). A get is {@link BlockCache#getBlock} with a counted, caching DATA lookup;
 * the returned view is owned by the caller, so the adapter releases it once after reading its length.
 *
 * <p>Thread-safety: as {@link L1Adapter}.
 */
final class OursAdapter implements L1Adapter {
  private static final ReadOptions READ = ReadOptions.of(BlockCategory.DATA);
  private static final CacheOptions WRITE = CacheOptions.of(BlockCategory.DATA);

  private final String name;
  private final BlockCache cache;
  private final BlockKey[] keys;

  OursAdapter(String name, BlockCache cache, int keyCount) {
    this.name = name;
    this.cache = cache;
    this.keys = new BlockKey[keyCount];
  }

  @Override
  public void populate(int blockSize) {
    Keys names = new Keys(blockSize);
    for (int i = 0; i < keys.length; i++) {
      keys[i] = BlockKey.of(names.file(i), names.offset(i));
      ByteBuf block = Unpooled.wrappedBuffer(names.content(i));
      try {
        CacheResult result = cache.cacheBlock(keys[i], block, WRITE);
        if (!result.isCached()) {
          throw new IllegalStateException(name + ": block " + i + " not cached: " + result);
        }
      } finally {
        block.release();
      }
    }
  }

  @Override
  public int get(int i) {
    ByteBuf block = cache.getBlock(keys[i], READ);
    if (block == null) {
      throw L1Adapter.miss(name, i);
    }
    int length = block.readableBytes();
    block.release();
    return length;
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
