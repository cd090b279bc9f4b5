package dev.blockcache.testing;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.api.ReadOptions;
import io.netty.buffer.ByteBuf;

/**
 * How a contract test addresses a lookup: by the block's key, or by its file's handle and offset. Every get and scoped
 * read case runs both, since the caches implement them as two paths.
 */
public enum LookupBy {
  /**
   * {@link BlockCache#getBlock(BlockKey, ReadOptions)} and
   * {@link BlockCache#read(BlockKey, ReadOptions, BlockReader)}.
   */
  KEY {
    @Override
    public ByteBuf get(BlockCache cache, BlockKey key, ReadOptions options) {
      return cache.getBlock(key, options);
    }

    @Override
    public boolean read(BlockCache cache, BlockKey key, ReadOptions options, BlockReader reader) {
      return cache.read(key, options, reader);
    }
  },
  /**
   * {@link BlockCache#getBlock(BlockFile, long, ReadOptions)} and
   * {@link BlockCache#read(BlockFile, long, ReadOptions, BlockReader)} of a fresh handle.
   */
  FILE_HANDLE {
    @Override
    public ByteBuf get(BlockCache cache, BlockKey key, ReadOptions options) {
      return cache.getBlock(BlockKey.file(key.file()), key.offset(), options);
    }

    @Override
    public boolean read(BlockCache cache, BlockKey key, ReadOptions options, BlockReader reader) {
      return cache.read(BlockKey.file(key.file()), key.offset(), options, reader);
    }
  };

  /** The get of {@code key}'s block through {@code cache}, addressed this way; the caller releases what it returns. */
  public abstract ByteBuf get(BlockCache cache, BlockKey key, ReadOptions options);

  /** The scoped read of {@code key}'s block through {@code cache}, addressed this way. */
  public abstract boolean read(BlockCache cache, BlockKey key, ReadOptions options, BlockReader reader);
}
