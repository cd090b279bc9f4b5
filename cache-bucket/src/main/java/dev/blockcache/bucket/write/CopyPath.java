package dev.blockcache.bucket.write;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.policy.SpaceReclaimer;

/**
 * Where a {@link BucketCache}'s {@code cacheBlock} puts its copy of a block, and whether {@code handOver} copies the
 * caller's buffer into a slot at once or lets it wait for a writer.
 *
 * <p>A memory engine's slot is process memory, so copying the caller's block straight into a free slot costs the
 * caller what a heap copy would, and saves the second copy, the RAM cache and the hand-off to a writer thread. Only
 * finding a slot may cost more (an eviction pass), so by default the caller writes only when a slot is free without
 * evicting ({@link #FREE_SLOT}) and leaves the eviction to the writer threads. Under tinylfu the admission has already
 * taken the block's slot on the caller's thread (evicting the one block it displaces, see
 * {@link SpaceReclaimer#admit}), so {@link #FREE_SLOT} always finds one there. Engines that are not memory write
 * through the writers always: a device write does not belong on the caller's thread.
 *
 * <p>Thread-safety: immutable.
 */
public enum CopyPath {
  /** Copied to the heap and queued for the writers. */
  QUEUED,
  /** Into a slot free without evicting, on the caller's thread; queued when none is (memory engines). */
  FREE_SLOT,
  /** Into a slot on the caller's thread, evicting if needed: {@code hbase.bucketcache.writer.inline=true}. */
  SLOT;

  /** The path {@code config} asks for on {@code engine}. */
  public static CopyPath of(BucketCacheConfig config, IoEngine engine) {
    if (config.writerInline()) {
      return SLOT;
    }
    return engine.isMemory() ? FREE_SLOT : QUEUED;
  }
}
