package dev.blockcache.bucket;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.testing.Blocks;

/**
 * The full contract on a started heap L2 whose puts go through {@code handOver}: every block waits in the RAM cache
 * as the caller's own buffer until its writer copied it, and the cache releases each buffer (the leak detector runs
 * at PARANOID). {@link BucketCacheHandOverMatrixTest} covers hand-over on every configuration.
 */
class HandOverBucketCacheContractTest extends StartedBucketCacheContractTest {
  @Override
  protected CacheResult put(BlockKey key, int length, CacheOptions options) {
    return cache.handOver(key, Blocks.payload(key, length), options); // the reference is the cache's now
  }
}
