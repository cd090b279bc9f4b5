package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.testing.BlockCacheContractTest;
import dev.blockcache.testing.Blocks;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The full {@link BlockCacheContractTest} on every L2 configuration of {@link L2Spec}: each valid combination of
 * engine, writer mode, read mode, checksum setting and persistence setting, with the eviction policy, the admission
 * window and the way puts reach the cache ({@code cacheBlock} or {@code handOver}, into a started cache or written
 * after every put) spread over them pairwise. A started cache comes from the public factory, as a user gets it;
 * {@link #settle} waits for its writers. {@code -Dl2spec=TEXT} in the test JVM (e.g.
 * {@code -Dsurefire.argLine="-Dl2spec=mmap -Xmx2g"}) runs only the specs whose name contains TEXT. The concurrent
 * test runs {@value #QUICK_CONCURRENT_OPS} operations per thread on each spec, the contract's full length with
 * {@code -Dblockcache.race.long=true} (the reliability profile); {@code BucketCacheStressTest} runs the long races.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("specs")
class BucketCacheMatrixContractTest extends BlockCacheContractTest {
  @Parameter
  L2Spec spec;

  @TempDir
  Path dir;

  static List<L2Spec> specs() {
    String only = System.getProperty("l2spec", "");
    return L2Spec.all().stream().filter(s -> s.toString().contains(only)).toList();
  }

  /** Operations per thread of the concurrent test in verify: a quarter of the contract's, over many specs. */
  static final int QUICK_CONCURRENT_OPS = 5_000;

  @Override
  protected int concurrentOpsPerThread() {
    return Boolean.getBoolean("blockcache.race.long") ? super.concurrentOpsPerThread() : QUICK_CONCURRENT_OPS;
  }

  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    BucketCacheConfig config = spec.config(dir);
    BucketCache cache = spec.puts().started() ? BucketCaches.started(config) : BucketCaches.create(config);
    assertEquals(spec.persistence() == L2Spec.Persistence.CHECKPOINTED, cache.persistence() != null,
        "whether the cache checkpoints (L2Spec.checkpoints states the rule)");
    return cache;
  }

  @Override
  protected long cacheCapacity() {
    return L2Spec.CAPACITY;
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
    CacheResult result = spec.puts().handsOver()
        ? cache.handOver(key, Blocks.payload(key, length), options) // the reference is the cache's now
        : super.put(key, length, options);
    if (!spec.puts().started()) {
      settle(cache);
    }
    return result;
  }

  @Override
  protected void settle(BlockCache cache) {
    BucketCaches.drain((BucketCache) cache);
  }
}
