package dev.blockcache.combined;

import dev.blockcache.api.BlockCache;
import dev.blockcache.config.LruConfig;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.testing.HandOverContractTest;

/** The contract on a combined cache of two LRU tiers: three quarters of the capacity in the L1, a quarter in the L2. */
class CombinedBlockCacheContractTest extends HandOverContractTest {
  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    long l2 = capacity / 4;
    return new CombinedBlockCache(
        new LruBlockCache(LruConfig.builder(capacity - l2).maxBlockSize(maxBlockSize).build()),
        new LruBlockCache(LruConfig.builder(l2).maxBlockSize(maxBlockSize).build()));
  }

  @Override
  protected void settle(BlockCache cache) {
    CombinedBlockCache combined = (CombinedBlockCache) cache;
    ((LruBlockCache) combined.l1()).runEviction();
    ((LruBlockCache) combined.l2()).runEviction();
  }
}
