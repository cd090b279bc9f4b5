package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.blockcache.api.BlockCache;
import dev.blockcache.testing.BlockCacheContractTest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The full {@link BlockCacheContractTest} on every valid L2 configuration of {@link L2Spec}: each engine, writer
 * mode, read mode, checksum setting and persistence setting, crossed. Each cache comes from the public factory, started
 * as a user gets it; {@link #settle} waits for its writers. {@code -Dl2spec=TEXT} in the test JVM (e.g.
 * {@code -Dsurefire.argLine="-Dl2spec=mmap -Xmx2g"}) runs only the specs whose name contains TEXT.
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

  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    BucketCache cache = BucketCaches.started(spec.config(dir));
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
  protected void settle(BlockCache cache) {
    BucketCaches.drain((BucketCache) cache);
  }
}
