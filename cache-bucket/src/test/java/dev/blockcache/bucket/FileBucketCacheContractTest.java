package dev.blockcache.bucket;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.testing.BlockCacheContractTest;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/** The contract on a {@code file:} L2 whose writers are drained after every put, so every get reads the file. */
class FileBucketCacheContractTest extends BlockCacheContractTest {
  @TempDir
  Path dir;

  private final AtomicInteger files = new AtomicInteger();

  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    Path file = dir.resolve("cache-" + files.incrementAndGet() + ".bin");
    return BucketCaches.create(BucketCaches.config("file:" + file, capacity).build());
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
  protected CacheResult put(BlockKey key, int length, CacheOptions options) {
    CacheResult result = super.put(key, length, options);
    settle(cache);
    return result;
  }

  @Override
  protected void settle(BlockCache cache) {
    ((BucketCache) cache).drainWriters();
  }
}
