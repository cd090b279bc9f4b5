package dev.blockcache.sim.policy;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.BucketCache;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * One of our {@link BlockCache}s, driven as a storage engine drives it: a counted, caching DATA {@code getBlock} per
 * access with the key built from file and offset; on a miss, {@code cacheBlock} of a block of the configured size
 * (every block has the same zero content: hit ratios do not depend on bytes).
 *
 * <p>Ownership: the block {@code getBlock} returns is the policy's and is released at once; the source block is the
 * policy's own, never handed to the cache ({@code cacheBlock} copies), and is released by {@link #close()}.
 *
 * <p>Thread-safety: not thread-safe (see {@link Policy}).
 */
final class BlockCachePolicy implements Policy {
  private static final ReadOptions READ = ReadOptions.of(BlockCategory.DATA);
  private static final CacheOptions WRITE = CacheOptions.of(BlockCategory.DATA);

  private final BlockCache cache;
  private final BlockKeys keys;
  private final Runnable afterInsert;
  private final ByteBuf source;
  private boolean closed;
  private long writes;
  /** Whether to count {@link #writes()}: only an L2 writes blocks to a device. */
  private final boolean countsWrites;

  /**
   * A policy over {@code cache}, which it owns and closes; {@code afterInsert} runs after every {@code cacheBlock}
   * (the L2 drains its writers there, so a block is written before the next access).
   */
  BlockCachePolicy(BlockCache cache, int blockSize, Runnable afterInsert) {
    this.cache = cache;
    this.countsWrites = cache instanceof BucketCache;
    this.keys = new BlockKeys(blockSize);
    this.afterInsert = afterInsert;
    this.source = Unpooled.wrappedBuffer(new byte[blockSize]);
  }

  @Override
  public boolean access(long key) {
    BlockKey block = keys.of(key);
    ByteBuf hit = cache.getBlock(block, READ);
    if (hit != null) {
      hit.release();
      return true;
    }
    // A refusal (queue full, too large, not admitted) is a miss that caches nothing.
    if (cache.cacheBlock(block, source, WRITE) == CacheResult.CACHED) {
      writes++;
    }
    afterInsert.run();
    return false;
  }

  /** Blocks cached (written, for an L2), or -1 for an L1. */
  @Override
  public long writes() {
    return countsWrites ? writes : -1;
  }

  /** The cache under simulation (for tests). */
  BlockCache cache() {
    return cache;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      cache.close();
      source.release();
    }
  }
}
