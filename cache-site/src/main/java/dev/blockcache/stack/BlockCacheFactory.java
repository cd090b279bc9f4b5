package dev.blockcache.stack;

import dev.blockcache.api.BlockCache;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.combined.CombinedBlockCache;
import dev.blockcache.config.ConfigException;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.l1.tinylfu.TinyLfuBlockCache;
import dev.blockcache.metrics.BlockCacheMetricsBean;
import dev.blockcache.site.SiteConfig;
import dev.blockcache.site.SiteConfigReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;

/**
 * Builds the whole block cache an hbase-site.xml asks for, started and ready: the L1 alone when
 * {@code hbase.bucketcache.ioengine} is unset, a {@link CombinedBlockCache} of L1 and L2 otherwise, the L1 policy
 * from {@code hfile.block.cache.policy}; nothing when the block cache is disabled.
 *
 * <p>The caller owns the returned cache and closes it; closing stops every thread of both tiers (and writes the
 * L2's last index checkpoint when it is persistent).
 *
 * <p>Thread-safety: stateless.
 */
public final class BlockCacheFactory {
  private BlockCacheFactory() {}

  /**
   * The cache the hbase-site.xml at {@code file} asks for, in a JVM whose max heap is this one's; empty when the
   * file disables the block cache ({@code hfile.block.cache.size} at or below 0.0001). Callers that need a cache use
   * {@link #fromSiteRequired}, whose error says why there is none.
   */
  public static Optional<BlockCache> fromSite(Path file) throws IOException {
    return build(SiteConfigReader.read(file, Runtime.getRuntime().maxMemory()));
  }

  /**
   * The cache the hbase-site.xml at {@code file} asks for, as {@link #fromSite}, for callers that need one.
   *
   * @throws ConfigException naming {@value SiteConfigReader#L1_SIZE} and its value when the file disables the block
   *     cache (where {@link #fromSite} returns an empty {@link Optional})
   */
  public static BlockCache fromSiteRequired(Path file) throws IOException {
    SiteConfig site = SiteConfigReader.read(file, Runtime.getRuntime().maxMemory());
    if (!site.enabled()) {
      throw new ConfigException(SiteConfigReader.L1_SIZE, site.disabledBy().orElse(""), "a fraction above "
          + SiteConfigReader.DISABLED_AT_OR_BELOW + " of the max heap, or " + SiteConfigReader.L1_MEMORY_SIZE
          + ": this value disables the block cache (as in HBase), and fromSiteRequired needs one; use fromSite to"
          + " accept no cache");
    }
    return build(site).orElseThrow();
  }

  /** The cache {@code conf} asks for, in a JVM whose max heap is this one's. */
  public static Optional<BlockCache> fromConfiguration(Configuration conf) throws IOException {
    return build(SiteConfigReader.read(conf));
  }

  /**
   * The cache {@code site} describes, started; empty when the block cache is disabled.
   *
   * @throws ConfigException naming {@code hbase.bucketcache.ioengine} when the engine cannot be made
   * @throws IOException when the engine's files cannot be opened
   */
  public static Optional<BlockCache> build(SiteConfig site) throws IOException {
    if (!site.enabled()) {
      return Optional.empty();
    }
    BlockCache l1 = site.lru().isPresent()
        ? new LruBlockCache(site.lru().get()).start()
        : new TinyLfuBlockCache(site.tinyLfu().orElseThrow()).start();
    if (site.l2().isEmpty()) {
      return Optional.of(l1);
    }
    BucketCache l2; // started by its factory
    try {
      l2 = BucketCache.create(site.l2().get());
    } catch (IOException | RuntimeException e) {
      l1.close();
      throw e;
    }
    return Optional.of(new CombinedBlockCache(l1, l2));
  }

  /**
   * A JMX bean of {@code cache}'s figures under HBase's names ({@link BlockCacheMetricsBean}), plus, when its L2 is
   * a {@link BucketCache}, the L2's own: allocator utilisation, index heap bytes per entry, writer queue depth, IO
   * errors, checksum mismatches, whether IO errors disabled it. Register it with
   * {@link BlockCacheMetricsBean#register}.
   */
  public static BlockCacheMetricsBean metricsBean(BlockCache cache) {
    Map<String, LongSupplier> counts = new LinkedHashMap<>();
    Map<String, DoubleSupplier> ratios = new LinkedHashMap<>();
    BlockCache l2 = cache instanceof CombinedBlockCache combinedBlockCache ? combinedBlockCache.l2() : null;
    if (l2 instanceof BucketCache bucket) {
      ratios.put("l2AllocatorUtilisation", () -> bucket.metrics().utilisation());
      ratios.put("l2IndexHeapBytesPerEntry", () -> bucket.metrics().indexHeapBytesPerEntry());
      counts.put("l2WriterQueueDepth", () -> bucket.metrics().writerQueueDepth());
      counts.put("l2IoErrorCount", () -> bucket.metrics().ioErrorCount());
      counts.put("l2ChecksumFailureCount", () -> bucket.metrics().checksumMismatchCount());
      counts.put("l2DisabledByIoErrors", () -> bucket.metrics().disabledByIoErrors() ? 1 : 0);
      counts.put("l2NotAdmittedCount", () -> bucket.metrics().notAdmittedCount());
      counts.put("l2OverWriteBudgetCount", () -> bucket.metrics().overWriteBudgetCount());
    }
    return new BlockCacheMetricsBean(cache, counts, ratios);
  }
}
