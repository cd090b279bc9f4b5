package dev.blockcache.l1.lru;

import dev.blockcache.api.BlockCache;
import dev.blockcache.config.LruConfig;
import dev.blockcache.testing.HandOverContractTest;

class LruBlockCacheContractTest extends HandOverContractTest {
  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    return new LruBlockCache(LruConfig.builder(capacity).maxBlockSize(maxBlockSize).build());
  }

  @Override
  protected void settle(BlockCache cache) {
    ((LruBlockCache) cache).runEviction();
  }
}
