package dev.blockcache.bucket;

import dev.blockcache.api.BlockCache;
import dev.blockcache.testing.BlockCacheContractTest;

/**
 * The contract on a heap L2 with running writer threads: gets find blocks in the RAM cache or in slots, whichever
 * holds them at that moment. Puts wait for queue room so that a fast test thread does not just fill the queues.
 */
class StartedBucketCacheContractTest extends BlockCacheContractTest {
  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    return BucketCaches.started(BucketCaches.config("heap", capacity).queueAdditionWaitTimeMs(10_000).build());
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
  protected void settle(BlockCache cache) {
    BucketCaches.drain((BucketCache) cache);
  }
}
