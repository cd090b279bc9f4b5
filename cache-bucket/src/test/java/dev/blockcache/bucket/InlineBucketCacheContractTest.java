package dev.blockcache.bucket;

import dev.blockcache.api.BlockCache;
import dev.blockcache.testing.BlockCacheContractTest;

/**
 * The contract on an offheap L2 with {@code hbase.bucketcache.writer.inline=true}: {@code cacheBlock} writes the slot
 * itself, so a block is in its slot when the call returns, with no writer thread started.
 */
class InlineBucketCacheContractTest extends BlockCacheContractTest {
  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    BucketCache cache = BucketCaches.create(BucketCaches.config("offheap", capacity).writerInline(true).build());
    cache.start();
    return cache;
  }

  @Override
  protected long cacheCapacity() {
    return 32L << 20;
  }

  @Override
  protected int largestBlock() {
    return BucketCaches.largestBlock("f");
  }

  @Override
  protected void settle(BlockCache cache) {
    ((BucketCache) cache).drainWriters();
  }
}
