package dev.blockcache.bucket;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.testing.BlockCacheContractTest;

/** The contract on an offheap L2 whose writers are drained after every put, so every get reads a slot. */
class WrittenBucketCacheContractTest extends BlockCacheContractTest {
  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    return BucketCaches.create(BucketCaches.config("offheap", capacity).build());
  }

  @Override
  protected long cacheCapacity() {
    return 32L << 20;
  }

  @Override
  protected long reportedCapacity() {
    return BucketCaches.usableCapacity(cacheCapacity());
  }

  @Override
  protected int largestBlock() {
    return BucketCaches.largestBlock("f");
  }

  @Override
  protected CacheResult put(BlockKey key, int length, CacheOptions options) {
    CacheResult result = super.put(key, length, options);
    settle(cache);
    return result;
  }

  @Override
  protected void settle(BlockCache cache) {
    BucketCaches.drain((BucketCache) cache);
  }
}
