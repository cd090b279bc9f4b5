package dev.blockcache.bucket.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.config.CapacityChecks;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.config.ConfigException;
import io.netty.util.internal.PlatformDependent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pins that a memory engine larger than the JVM lets it be is refused at start, before it allocates anything, with
 * an error naming {@value BucketCacheKeys#SIZE}, the size, the limit found and the flag that sets it — rather than
 * allocating for seconds and dying with {@link OutOfMemoryError}.
 */
class MemoryLimitTest {
  private static final int SEGMENT = 1 << 20;

  @Test
  void anOffHeapEngineOverTheDirectMemoryLimitIsRefusedNamingTheFlag() {
    MemoryLimit limit = new MemoryLimit("direct memory", "-XX:MaxDirectMemorySize", 64L << 20, 16L << 20);
    ConfigException e = assertThrows(ConfigException.class, () -> new OffHeapIoEngine(64L << 20, SEGMENT, limit));
    assertEquals(BucketCacheKeys.SIZE, e.key());
    assertTrue(e.value().startsWith("64.0 MB"), e.value());
    assertTrue(e.getMessage().contains("-XX:MaxDirectMemorySize allows 64.0 MB"), e.getMessage());
    assertTrue(e.getMessage().contains("at most 48.0 MB"), e.getMessage());
    assertTrue(e.getMessage().contains("offheap"), e.getMessage());
  }

  @Test
  void aHeapEngineOverTheMaxHeapIsRefusedNamingXmx() {
    MemoryLimit limit = new MemoryLimit("heap", "-Xmx", 32L << 20, 0);
    ConfigException e = assertThrows(ConfigException.class, () -> new HeapIoEngine(33L << 20, SEGMENT, limit));
    assertEquals(BucketCacheKeys.SIZE, e.key());
    assertTrue(e.getMessage().contains("-Xmx allows 32.0 MB"), e.getMessage());
  }

  @Test
  void anEngineThatFitsIsMade() {
    MemoryLimit limit = new MemoryLimit("direct memory", "-XX:MaxDirectMemorySize", 8L << 20, 0);
    try (OffHeapIoEngine engine = new OffHeapIoEngine(4L << 20, SEGMENT, limit)) {
      assertEquals(4L << 20, engine.capacity());
    }
  }

  /** The real limits of this JVM: one byte more than the whole limit is refused, and nothing was allocated. */
  @ParameterizedTest
  @ValueSource(strings = {"heap", "offheap"})
  void thisJvmsLimitRefusesAnEngineOneByteLargerThanIt(String scheme) throws Exception {
    long limit = scheme.equals("heap") ? Runtime.getRuntime().maxMemory() : PlatformDependent.maxDirectMemory();
    long bucket = 4L * BucketCacheConfig.defaultBucketSizes()[BucketCacheConfig.defaultBucketSizes().length - 1];
    BucketCacheConfig config = BucketCacheConfig.builder(scheme, (limit / bucket + 1) * bucket).build();
    ConfigException e = assertThrows(ConfigException.class, () -> BucketCache.create(config));
    assertEquals(BucketCacheKeys.SIZE, e.key());
    assertTrue(e.getMessage().contains(scheme.equals("heap") ? "-Xmx" : "-XX:MaxDirectMemorySize"), e.getMessage());
  }

  @Test
  void theConfiguredMaximumIsWhatTheIndexAddresses() {
    assertTrue(CapacityChecks.MAX_CAPACITY - IndexEntry.OFFSET_UNIT <= IndexEntry.MAX_OFFSET);
    assertTrue(CapacityChecks.MAX_CAPACITY > IndexEntry.MAX_OFFSET);
  }
}
