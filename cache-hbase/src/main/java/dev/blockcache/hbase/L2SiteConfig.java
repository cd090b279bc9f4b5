package dev.blockcache.hbase;

import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import dev.blockcache.site.SiteConfig;
import dev.blockcache.site.SiteConfigReader;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads the L2's configuration out of a RegionServer's {@link Configuration}: the {@code hbase.bucketcache.*} keys
 * the operator set, through our own {@link SiteConfigReader} (so names, defaults, validation and the reporting of keys
 * that are not applied are exactly those of {@code docs/configuration.md}).
 *
 * <p>Only keys under {@value #PREFIX} are taken. HBase keeps its L1 (and reads the L1 keys itself), and the
 * storage-engine keys ({@code hbase.rs.cacheblocksonwrite}, ...) are HBase's own policy there, so neither is
 * reported. Keys whose only source is HBase's {@code hbase-default.xml} are HBase's defaults, not the operator's
 * choice: they are skipped too, so that our own defaults apply and nothing is reported that nobody set. Every other
 * {@value #PREFIX} key that is unknown or not applied is reported by {@link SiteConfigReader} with its name, one WARN
 * line each.
 *
 * <p>Thread-safety: stateless.
 */
final class L2SiteConfig {
  static final String PREFIX = "hbase.bucketcache.";
  private static final String HBASE_DEFAULTS = "hbase-default.xml";

  private L2SiteConfig() {}

  /**
   * The validated L2 config {@code conf} asks for.
   *
   * @throws ConfigException naming the key when a value cannot be used, or naming
   *     {@value BucketCacheKeys#IOENGINE} when no engine is set (an external L2 without an engine is a mistake,
   *     and HBase would otherwise fall back to its L1 alone with a single WARN)
   */
  static BucketCacheConfig read(Configuration conf) {
    SiteConfig site = SiteConfigReader.read(operatorKeys(conf));
    return site.l2().orElseThrow(() -> new ConfigException(BucketCacheKeys.IOENGINE, "unset",
        "an L2 engine (offheap, heap, file:/path, files:/p1,/p2 or mmap:/path) for the external block cache"));
  }

  /** The {@value #PREFIX} keys of {@code conf} that the operator set (anything but HBase's defaults file). */
  static Map<String, String> operatorValues(Configuration conf) {
    Map<String, String> keys = new TreeMap<>();
    for (Map.Entry<String, String> entry : conf) {
      String key = entry.getKey();
      if (key.startsWith(PREFIX) && !onlyFromHBaseDefaults(conf, key)) {
        keys.put(key, entry.getValue());
      }
    }
    return keys;
  }

  private static Configuration operatorKeys(Configuration conf) {
    Configuration own = new Configuration(false);
    operatorValues(conf).forEach(own::set);
    return own;
  }

  private static boolean onlyFromHBaseDefaults(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    if (sources == null || sources.length == 0) {
      return false;
    }
    for (String source : sources) {
      if (!source.endsWith(HBASE_DEFAULTS)) {
        return false;
      }
    }
    return true;
  }
}
