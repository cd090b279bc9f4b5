package dev.blockcache.l1.lru;

import dev.blockcache.api.BlockCache;
import dev.blockcache.config.LruConfig;
import dev.blockcache.testing.BlockCacheContractTest;

class LruBlockCacheContractTest extends BlockCacheContractTest {
  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    return new LruBlockCache(LruConfig.builder(capacity).maxBlockSize(maxBlockSize).build());
  }

  @Override
  protected void settle(BlockCache cache) {
    ((LruBlockCache) cache).runEviction();
  }
}
