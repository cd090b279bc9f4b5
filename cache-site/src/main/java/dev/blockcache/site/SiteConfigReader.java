package dev.blockcache.site;

import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.config.BucketCacheReader;
import dev.blockcache.config.ConfigException;
import dev.blockcache.config.L1Policy;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.SiteValues;
import dev.blockcache.config.TinyLfuConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the block-cache keys of an hbase-site.xml (or any Hadoop {@link Configuration}) into a validated
 * {@link SiteConfig}: every key of {@link ConfigKeys#ALL} in one place, with HBase's names, meanings and defaults.
 *
 * <p>A value that does not parse or is out of range is a {@link ConfigException} naming the key, the value and what
 * is accepted; a file that is not well-formed XML is one naming the file and the parser's line. A key that is present
 * but not applied — a storage-engine key, an unsupported HBase key, an unknown key under a cache prefix, a key of a
 * tier that is not built, a key of the other L1 policy — is reported: one WARN line each, and
 * {@link SiteConfig#reportedKeys()}. Nothing is silently ignored.
 *
 * <p>Thread-safety: stateless; safe for concurrent use as long as the {@link Configuration} is not being modified.
 */
public final class SiteConfigReader {
  public static final String L1_SIZE = "hfile.block.cache.size";
  public static final String L1_MEMORY_SIZE = "hfile.block.cache.memory.size";
  public static final String L1_POLICY = "hfile.block.cache.policy";
  /** HBase's default L1 share of the max heap. */
  public static final float DEFAULT_L1_SIZE = 0.4f;
  /** At or below this {@value #L1_SIZE}, HBase builds no block cache at all. */
  public static final float DISABLED_AT_OR_BELOW = 0.0001f;
  /** HBase's memstore share of the heap; read only to apply HBase's rule {@link #MAX_L1_PLUS_MEMSTORE}. */
  public static final String MEMSTORE_SIZE = "hbase.regionserver.global.memstore.size";
  public static final float DEFAULT_MEMSTORE_SIZE = 0.4f;
  /**
   * HBase refuses to start when the L1 and the memstore together take more than this share of the heap (it keeps
   * 20% for everything else); so do we, with the same keys.
   */
  public static final float MAX_L1_PLUS_MEMSTORE = 0.8f;

  private static final Logger LOG = LoggerFactory.getLogger(SiteConfigReader.class);
  private static final String LRU_PREFIX = "hbase.lru.";

  private SiteConfigReader() {}

  /** Reads {@code conf} for a JVM whose max heap is this one's ({@link Runtime#maxMemory()}). */
  public static SiteConfig read(Configuration conf) {
    return read(conf, Runtime.getRuntime().maxMemory());
  }

  /**
   * Reads the hbase-site.xml at {@code file}, alone (no Hadoop default resources).
   *
   * @throws ConfigException naming the file when it is missing, unreadable or not well-formed XML
   */
  public static SiteConfig read(Path file, long maxHeapBytes) {
    return read(load(file), maxHeapBytes);
  }

  /**
   * The hbase-site.xml at {@code file} as a {@link Configuration} of its own keys only (no Hadoop default resources),
   * parsed now.
   *
   * @throws ConfigException naming the file when it is missing, unreadable or not well-formed XML
   */
  public static Configuration load(Path file) {
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new ConfigException("hbase-site.xml", file, "a readable XML file");
    }
    refuseDoctype(file);
    Configuration conf = new Configuration(false);
    // The restricted-parser overload: the one-argument addResource(Path) needs Hadoop security classes.
    conf.addResource(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()), false);
    try {
      conf.size();
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new ConfigException("hbase-site.xml", file, "well-formed Hadoop configuration XML (" + cause.getMessage()
          + ")");
    }
    return conf;
  }

  /**
   * Refuses a file with a document type declaration before any parser sees it: a DOCTYPE is where entities are
   * declared, and an external entity would make the parser read another file (or URL) and put its content into a
   * value or an error message. hbase-site.xml files have no use for one.
   */
  private static void refuseDoctype(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new ConfigException("hbase-site.xml", file, "a readable XML file (" + e.getClass().getSimpleName() + ")");
    }
    if (text.toUpperCase(Locale.ROOT).contains("<!DOCTYPE")) {
      throw new ConfigException("hbase-site.xml", file, "Hadoop configuration XML without a DOCTYPE (document type"
          + " declarations and entities are not read, so that no external entity is ever resolved)");
    }
  }

  /**
   * Reads {@code conf} for a JVM whose max heap is {@code maxHeapBytes}.
   *
   * @throws ConfigException naming the first key whose value cannot be used
   */
  public static SiteConfig read(Configuration conf, long maxHeapBytes) {
    if (maxHeapBytes <= 0) {
      throw new IllegalArgumentException("max heap must be positive, was " + maxHeapBytes);
    }
    SiteValues values = new SiteValues(conf::get);
    Map<String, String> present = cacheKeysPresent(conf);
    List<String> reports = new ArrayList<>();
    reportForeignKeys(present, reports);

    String policyText = values.text(L1_POLICY);
    L1Policy policy = policyText == null ? L1Policy.LRU : L1Policy.parse(L1_POLICY, policyText);
    long l1Capacity = l1Capacity(values, maxHeapBytes);
    LruConfig lru = null;
    TinyLfuConfig tinyLfu = null;
    BucketCacheConfig l2 = null;
    if (l1Capacity == 0) {
      reportAll(present, "not applied: the block cache is disabled by " + L1_SIZE + "=" + values.text(L1_SIZE),
          reports, L1_SIZE, L1_POLICY);
    } else {
      if (policy == L1Policy.LRU) {
        lru = LruConfig.read(values, l1Capacity);
        reportPrefix(present, TinyLfuConfig.MAX_BLOCK_SIZE, "applies to the TinyLFU policy only", reports);
      } else {
        tinyLfu = TinyLfuConfig.read(values, l1Capacity);
        reportPrefix(present, LRU_PREFIX, "applies to the LRU policy only", reports);
      }
      if (values.text(BucketCacheKeys.IOENGINE) != null) {
        l2 = BucketCacheReader.read(values);
        if (l2.writerInline()) {
          for (String key : List.of(BucketCacheKeys.WRITER_THREADS, BucketCacheKeys.WRITER_QUEUE_LENGTH,
              BucketCacheKeys.QUEUE_ADDITION_WAIT_TIME)) {
            reportPrefix(present, key, "not applied: " + BucketCacheKeys.WRITER_INLINE
                + "=true writes on the caller's thread, with no writer queue", reports);
          }
        }
      } else {
        reportPrefix(present, "hbase.bucketcache.",
            "not applied: no L2 without " + BucketCacheKeys.IOENGINE, reports);
      }
    }
    for (String line : reports) {
      LOG.warn("{}", line);
    }
    return new SiteConfig(policy, lru, tinyLfu, l2, reports, l1Capacity == 0 ? values.text(L1_SIZE) : null);
  }

  /** The L1 capacity in bytes; 0 when the block cache is disabled. */
  private static long l1Capacity(SiteValues values, long maxHeapBytes) {
    float fraction = values.fraction(L1_SIZE, DEFAULT_L1_SIZE);
    if (!(fraction >= 0f && fraction <= 1f)) {
      throw new ConfigException(L1_SIZE, values.text(L1_SIZE),
          "a fraction of the max heap in [0, 1]; <= " + DISABLED_AT_OR_BELOW + " disables the block cache");
    }
    long absolute = values.bytes(L1_MEMORY_SIZE);
    if (absolute > 0) {
      if (absolute >= maxHeapBytes) {
        throw new ConfigException(L1_MEMORY_SIZE, values.text(L1_MEMORY_SIZE),
            "a size below the max heap (" + maxHeapBytes + " bytes)");
      }
      checkHeapShare(values, L1_MEMORY_SIZE, values.text(L1_MEMORY_SIZE), absolute / (double) maxHeapBytes);
      return absolute;
    }
    if (fraction <= DISABLED_AT_OR_BELOW) {
      return 0;
    }
    checkHeapShare(values, L1_SIZE, values.text(L1_SIZE) == null ? String.valueOf(DEFAULT_L1_SIZE)
        : values.text(L1_SIZE), fraction);
    return Math.max(1, (long) (maxHeapBytes * (double) fraction));
  }

  /** HBase's start-up rule: the L1's share of the heap plus the memstore's is at most {@link #MAX_L1_PLUS_MEMSTORE}. */
  private static void checkHeapShare(SiteValues values, String key, String given, double l1Share) {
    float memstore = values.fraction(MEMSTORE_SIZE, DEFAULT_MEMSTORE_SIZE);
    // Compared in whole percent, as HBase does, so 0.4 + 0.4 passes despite float rounding.
    if (Math.round(l1Share * 100) + Math.round(memstore * 100.0) > Math.round(MAX_L1_PLUS_MEMSTORE * 100.0)) {
      throw new ConfigException(key, given, String.format(Locale.ROOT,
          "an L1 of at most %.2f of the max heap with %s=%s: HBase refuses an L1 and memstore above %.1f of the heap"
          + " together (this L1 is %.2f)", Math.max(0, MAX_L1_PLUS_MEMSTORE - memstore), MEMSTORE_SIZE, memstore,
          MAX_L1_PLUS_MEMSTORE, l1Share));
    }
  }

  /** Present keys under a cache prefix, plus the storage-engine and unsupported keys, sorted by name. */
  private static Map<String, String> cacheKeysPresent(Configuration conf) {
    Map<String, String> present = new TreeMap<>();
    for (Map.Entry<String, String> entry : conf) {
      String key = entry.getKey();
      boolean cacheKey = ConfigKeys.CACHE_PREFIXES.stream().anyMatch(key::startsWith);
      if (cacheKey || ConfigKeys.STORAGE_ENGINE_KEYS.contains(key) || ConfigKeys.UNSUPPORTED.containsKey(key)) {
        present.put(key, entry.getValue());
      }
    }
    return present;
  }

  /** Reports storage-engine, unsupported and unknown keys, and drops them from {@code present}. */
  private static void reportForeignKeys(Map<String, String> present, List<String> reports) {
    present.entrySet().removeIf(entry -> {
      String key = entry.getKey();
      if (ConfigKeys.STORAGE_ENGINE_KEYS.contains(key)) {
        reports.add(key + "=" + entry.getValue() + ": the storage engine's caching policy, not the cache's;"
            + " apply it in the storage engine");
      } else if (ConfigKeys.UNSUPPORTED.containsKey(key)) {
        reports.add(key + "=" + entry.getValue() + ": not supported: " + ConfigKeys.UNSUPPORTED.get(key));
      } else if (!ConfigKeys.isKnown(key)) {
        reports.add(key + "=" + entry.getValue() + ": unknown block-cache key, not applied (see "
            + "docs/configuration.md)");
      } else {
        return false;
      }
      return true;
    });
  }

  private static void reportPrefix(Map<String, String> present, String prefix, String why, List<String> reports) {
    present.forEach((key, value) -> {
      if (key.startsWith(prefix)) {
        reports.add(key + "=" + value + ": " + why);
      }
    });
  }

  private static void reportAll(Map<String, String> present, String why, List<String> reports, String... except) {
    present.forEach((key, value) -> {
      if (!List.of(except).contains(key)) {
        reports.add(key + "=" + value + ": " + why);
      }
    });
  }
}
