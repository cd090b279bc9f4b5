package dev.blockcache.bucket;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.testing.Blocks;

/**
 * The full contract on an offheap L2 whose puts go through {@code handOver} and are written before the next step,
 * so every get reads a slot and every handed-over buffer has been released by then.
 */
class HandOverWrittenBucketCacheContractTest extends WrittenBucketCacheContractTest {
  @Override
  protected CacheResult put(BlockKey key, int length, CacheOptions options) {
    CacheResult result = cache.handOver(key, Blocks.payload(key, length), options); // the cache's reference now
    settle(cache);
    return result;
  }
}
