package dev.blockcache.testing;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.api.ReadOptions;

/**
 * How a contract test addresses a scoped read: by the block's key, or by its file's handle and offset. Every scoped
 * read case runs both, since the caches implement them as two paths.
 */
public enum ReadBy {
  /** {@link BlockCache#read(BlockKey, ReadOptions, BlockReader)}. */
  KEY {
    @Override
    public boolean read(BlockCache cache, BlockKey key, ReadOptions options, BlockReader reader) {
      return cache.read(key, options, reader);
    }
  },
  /** {@link BlockCache#read(dev.blockcache.api.BlockFile, long, ReadOptions, BlockReader)} of a fresh handle. */
  FILE_HANDLE {
    @Override
    public boolean read(BlockCache cache, BlockKey key, ReadOptions options, BlockReader reader) {
      return cache.read(BlockKey.file(key.file()), key.offset(), options, reader);
    }
  };

  /** The scoped read of {@code key}'s block through {@code cache}, addressed this way. */
  public abstract boolean read(BlockCache cache, BlockKey key, ReadOptions options, BlockReader reader);
}
