package dev.blockcache.bucket.engine;

import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes IO engines from {@code hbase.bucketcache.ioengine} values by their scheme: the text before the first
 * {@code ':'}, or the whole value when there is none ({@code heap}, {@code offheap}, {@code file:/path},
 * {@code files:/a,/b}, {@code mmap:/path}). Schemes are matched case-insensitively, as HBase does.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class IoEngineRegistry {
  /** HBase schemes this library does not implement, with the reason given to the user. */
  private static final Map<String, String> UNSUPPORTED = Map.of(
      "pmem", "an engine this library implements: persistent memory (pmem:) is not supported; use offheap or file:");

  private final Map<String, IoEngineFactory> factories = new ConcurrentHashMap<>();
  /** The schemes whose engines are {@link IoEngine#isMemory() memory}, as their registration declared. */
  private final Set<String> memorySchemes = ConcurrentHashMap.newKeySet();

  private IoEngineRegistry() {}

  /** A registry knowing {@code heap}, {@code offheap} and the file engines with default options. */
  public static IoEngineRegistry withBuiltins() {
    return withBuiltins(FileEngineOptions.DEFAULTS);
  }

  /**
   * A registry knowing {@code heap}, {@code offheap}, {@code file}, {@code files} and {@code mmap}; the file engines
   * open their files with {@code fileOptions}.
   */
  public static IoEngineRegistry withBuiltins(FileEngineOptions fileOptions) {
    IoEngineFactory files = (spec, capacity, segment) -> FileIoEngine.open(spec, capacity, segment, fileOptions);
    return new IoEngineRegistry()
        .registerMemory(HeapIoEngine.SCHEME, (spec, capacity, segment) -> new HeapIoEngine(capacity, segment))
        .registerMemory(OffHeapIoEngine.SCHEME, (spec, capacity, segment) -> new OffHeapIoEngine(capacity, segment))
        .register(FileIoEngine.SCHEME, files)
        .register(FileIoEngine.STRIPED_SCHEME, files)
        .register(MmapIoEngine.SCHEME,
            (spec, capacity, segment) -> MmapIoEngine.open(spec, capacity, segment, fileOptions));
  }

  /** Adds or replaces the factory for {@code scheme}, whose engines are not memory; returns this registry. */
  public IoEngineRegistry register(String scheme, IoEngineFactory factory) {
    String name = scheme.toLowerCase(Locale.ROOT);
    factories.put(name, factory);
    memorySchemes.remove(name);
    return this;
  }

  /**
   * Adds or replaces the factory for {@code scheme}, whose engines are {@link IoEngine#isMemory() memory} (so that
   * a cache can refuse a memory-only setting before it makes an engine); returns this registry.
   */
  public IoEngineRegistry registerMemory(String scheme, IoEngineFactory factory) {
    register(scheme, factory);
    memorySchemes.add(scheme.toLowerCase(Locale.ROOT));
    return this;
  }

  /**
   * Whether the engines this registry makes for {@code spec} are memory, as their registration declared.
   *
   * @throws ConfigException as {@link #create} would for a spec it cannot make
   */
  public boolean makesMemoryEngine(String spec) {
    return memorySchemes.contains(knownScheme(spec));
  }

  /** The known schemes, sorted. */
  public Set<String> schemes() {
    return new TreeSet<>(factories.keySet());
  }

  /**
   * An engine for {@code spec}, which the caller owns and closes.
   *
   * @throws ConfigException naming {@value BucketCacheKeys#IOENGINE} for a blank value, an unknown scheme or one we
   *     do not support
   */
  public IoEngine create(String spec, long capacity, int segmentSize) throws IOException {
    return factories.get(knownScheme(spec)).create(spec.trim(), capacity, segmentSize);
  }

  /**
   * The scheme of {@code spec} ({@link #schemeOf}) when this registry can make its engine.
   *
   * @throws ConfigException naming {@value BucketCacheKeys#IOENGINE} for a blank value, an unknown scheme or one we
   *     do not support, as {@link #create} would
   */
  public String knownScheme(String spec) {
    String scheme = schemeOf(spec);
    if (!factories.containsKey(scheme)) {
      String reason = UNSUPPORTED.get(scheme);
      throw new ConfigException(BucketCacheKeys.IOENGINE, spec,
          reason != null ? reason : "one of " + String.join(", ", schemes()));
    }
    return scheme;
  }

  /**
   * The scheme of an {@value BucketCacheKeys#IOENGINE} value, lower case: the text before the first {@code ':'},
   * or the whole value.
   *
   * @throws ConfigException naming the key for a blank value
   */
  public static String schemeOf(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new ConfigException(BucketCacheKeys.IOENGINE, spec, "an engine: heap, offheap or file:/path");
    }
    String trimmed = spec.trim();
    int colon = trimmed.indexOf(':');
    return (colon < 0 ? trimmed : trimmed.substring(0, colon)).toLowerCase(Locale.ROOT);
  }
}
