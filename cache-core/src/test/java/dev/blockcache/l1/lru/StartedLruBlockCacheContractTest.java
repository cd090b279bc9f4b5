package dev.blockcache.l1.lru;

import dev.blockcache.api.BlockCache;
import dev.blockcache.config.LruConfig;
import dev.blockcache.testing.HandOverContractTest;

/** The contract with eviction on the background thread; the size may pass capacity up to the hard limit. */
class StartedLruBlockCacheContractTest extends HandOverContractTest {
  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    return new LruBlockCache(LruConfig.builder(capacity).maxBlockSize(maxBlockSize).build()).start();
  }

  @Override
  protected void settle(BlockCache cache) {
    ((LruBlockCache) cache).runEviction();
  }

  @Override
  protected long settledSizeLimit(long capacity) {
    return capacity;
  }
}
