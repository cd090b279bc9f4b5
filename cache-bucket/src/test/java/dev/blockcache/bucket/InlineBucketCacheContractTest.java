package dev.blockcache.bucket;

import dev.blockcache.api.BlockCache;

/**
 * The contract on an offheap L2 with {@code hbase.bucketcache.writer.inline=true}: {@code cacheBlock} writes the slot
 * itself, so a block is in its slot when the call returns, with no writer thread started. Sizes and settling as in
 * {@link StartedBucketCacheContractTest}.
 */
class InlineBucketCacheContractTest extends StartedBucketCacheContractTest {
  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    return BucketCaches.started(BucketCaches.config("offheap", capacity).writerInline(true).build());
  }
}
