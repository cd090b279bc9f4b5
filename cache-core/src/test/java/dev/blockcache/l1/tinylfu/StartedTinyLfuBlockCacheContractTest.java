package dev.blockcache.l1.tinylfu;

import dev.blockcache.api.BlockCache;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.testing.HandOverContractTest;

/** The contract with Caffeine's maintenance on the cache's own thread; {@code settle} runs it on the test's. */
class StartedTinyLfuBlockCacheContractTest extends HandOverContractTest {
  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    return new TinyLfuBlockCache(TinyLfuConfig.of(capacity, maxBlockSize, LruConfig.DEFAULT_MIN_BLOCK_SIZE)).start();
  }

  @Override
  protected void settle(BlockCache cache) {
    ((TinyLfuBlockCache) cache).cleanUp();
  }
}
