package dev.blockcache.metrics;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CacheStats;
import dev.blockcache.combined.CombinedBlockCache;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A read-only JMX bean of a {@link BlockCache}'s figures under HBase's RegionServer metric names
 * ({@code blockCacheHitCount}, {@code blockCacheCountHitPercent}, {@code l1CacheHitRatio}, {@code l2CacheSize}, ...),
 * so that dashboards reading HBase's names read ours; per-category hit and miss counts; and any figures the caller
 * adds (the L2 adds its allocator, index and IO figures). A dynamic bean, because HBase's names start lower-case,
 * which a standard MXBean cannot express.
 *
 * <p>For a {@link CombinedBlockCache} the {@code l1Cache*} and {@code l2Cache*} sets are its tiers; for a single
 * cache, the L1 set is the cache and the L2 set reads zero. Every read takes fresh snapshots; {@link #getAttributes}
 * takes one per tier for all the names asked.
 *
 * <p>Types follow HBase's: counts and sizes ({@code ...Count}, {@code ...Size}) are {@code long}, ratios and percents
 * ({@code ...Ratio}, {@code ...Percent}) are {@code double}; {@link #getMBeanInfo()} says which.
 *
 * <p>Thread-safety: safe for concurrent use (the cache's snapshots are).
 */
public final class BlockCacheMetricsBean implements DynamicMBean {
  private final BlockCache cache;
  private final Map<String, Metric> attributes = new LinkedHashMap<>();

  /** One attribute: its JMX type name ({@code "long"} or {@code "double"}) and how to read it from snapshots. */
  private static final class Metric {
    final String type;
    final Function<Snapshots, Object> read;

    private Metric(String type, Function<Snapshots, Object> read) {
      this.type = type;
      this.read = read;
    }

    static Metric count(ToLongFunction<Snapshots> read) {
      return new Metric("long", s -> read.applyAsLong(s));
    }

    static Metric ratio(ToDoubleFunction<Snapshots> read) {
      return new Metric("double", s -> read.applyAsDouble(s));
    }
  }

  /**
   * The figures of {@code cache}, plus {@code extraCounts} (published as longs) and {@code extraRatios} (as doubles),
   * name → reader; an extra must not reuse a built-in name.
   */
  public BlockCacheMetricsBean(BlockCache cache, Map<String, LongSupplier> extraCounts,
      Map<String, DoubleSupplier> extraRatios) {
    this.cache = cache;
    defineTotals();
    defineTier("l1Cache", Snapshots::l1);
    defineTier("l2Cache", Snapshots::l2);
    for (BlockCategory category : BlockCategory.values()) {
      String name = category.name().toLowerCase(Locale.ROOT);
      attributes.put(name + "BlockHitCount", Metric.count(s -> s.all.hitCount(category)));
      attributes.put(name + "BlockMissCount", Metric.count(s -> s.all.missCount(category)));
    }
    extraCounts.forEach((name, reader) -> defineExtra(name, Metric.count(s -> reader.getAsLong())));
    extraRatios.forEach((name, reader) -> defineExtra(name, Metric.ratio(s -> reader.getAsDouble())));
  }

  private void defineExtra(String name, Metric metric) {
    if (attributes.putIfAbsent(name, metric) != null) {
      throw new IllegalArgumentException("metric " + name + " is defined already");
    }
  }

  private void defineTotals() {
    attributes.put("blockCacheHitCount", Metric.count(s -> s.all.hitCount()));
    attributes.put("blockCacheMissCount", Metric.count(s -> s.all.missCount()));
    attributes.put("blockCacheCountHitPercent", Metric.ratio(s -> 100 * s.all.hitRatio()));
    attributes.put("blockCacheExpressHitPercent", Metric.ratio(s -> 100 * s.all.cachingHitRatio()));
    attributes.put("blockCacheEvictionCount", Metric.count(s -> s.all.evictedBlockCount()));
    attributes.put("blockCacheFailedInsertionCount", Metric.count(s -> s.all.failedInsertionCount()));
    attributes.put("blockCacheSize", Metric.count(s -> s.all.size()));
    attributes.put("blockCacheFreeSize", Metric.count(s -> s.all.freeSize()));
    attributes.put("blockCacheCount", Metric.count(s -> s.all.blockCount()));
    attributes.put("blockCacheDataBlockCount", Metric.count(s -> s.all.blockCount(BlockCategory.DATA)));
  }

  private void defineTier(String prefix, Function<Snapshots, CacheStats> tier) {
    attributes.put(prefix + "HitCount", tierCount(tier, CacheStats::hitCount));
    attributes.put(prefix + "MissCount", tierCount(tier, CacheStats::missCount));
    attributes.put(prefix + "HitRatio", Metric.ratio(s -> {
      CacheStats stats = tier.apply(s);
      return stats == null ? 0 : stats.hitRatio();
    }));
    attributes.put(prefix + "MissRatio", Metric.ratio(s -> {
      CacheStats stats = tier.apply(s);
      return stats == null ? 0 : stats.missRatio();
    }));
    attributes.put(prefix + "EvictionCount", tierCount(tier, CacheStats::evictedBlockCount));
    attributes.put(prefix + "Size", tierCount(tier, CacheStats::size));
    attributes.put(prefix + "FreeSize", tierCount(tier, CacheStats::freeSize));
    attributes.put(prefix + "Count", tierCount(tier, CacheStats::blockCount));
  }

  /** A count of one tier; 0 when the cache has no such tier. */
  private static Metric tierCount(Function<Snapshots, CacheStats> tier,
      ToLongFunction<CacheStats> value) {
    return Metric.count(s -> {
      CacheStats stats = tier.apply(s);
      return stats == null ? 0 : value.applyAsLong(stats);
    });
  }

  /** Registers this bean under {@code name}; the returned handle unregisters it. */
  public AutoCloseable register(MBeanServer server, ObjectName name) throws javax.management.JMException {
    server.registerMBean(this, name);
    return () -> server.unregisterMBean(name);
  }

  /** The snapshots one read works from: all, L1, L2 (null when the cache has no L2). */
  private static final class Snapshots {
    final CacheStats all;
    final CacheStats l1;
    final CacheStats l2;

    Snapshots(BlockCache cache) {
      if (cache instanceof CombinedBlockCache combined) {
        l1 = combined.l1Stats();
        l2 = combined.l2Stats();
        all = l1.plus(l2);
      } else {
        all = cache.stats();
        l1 = all;
        l2 = null;
      }
    }

    CacheStats l1() {
      return l1;
    }

    CacheStats l2() {
      return l2;
    }
  }

  @Override
  public Object getAttribute(String name) throws AttributeNotFoundException {
    Metric metric = attributes.get(name);
    if (metric == null) {
      throw new AttributeNotFoundException(name + " is not a block cache metric");
    }
    return metric.read.apply(new Snapshots(cache));
  }

  @Override
  public AttributeList getAttributes(String[] names) {
    Snapshots snapshots = new Snapshots(cache);
    AttributeList list = new AttributeList();
    for (String name : names) {
      Metric metric = attributes.get(name);
      if (metric != null) {
        list.add(new Attribute(name, metric.read.apply(snapshots)));
      }
    }
    return list;
  }

  /** Read-only: always throws. */
  @Override
  public void setAttribute(Attribute attribute) {
    throw new UnsupportedOperationException("block cache metrics are read-only");
  }

  /** Read-only: sets nothing and returns an empty list. */
  @Override
  public AttributeList setAttributes(AttributeList attributes) {
    return new AttributeList();
  }

  /** No operations: always throws. */
  @Override
  public Object invoke(String actionName, Object[] params, String[] signature) {
    throw new UnsupportedOperationException("block cache metrics have no operations");
  }

  @Override
  public MBeanInfo getMBeanInfo() {
    MBeanAttributeInfo[] infos = attributes.entrySet().stream()
        .map(e -> new MBeanAttributeInfo(e.getKey(), e.getValue().type, e.getKey(), true, false, false))
        .toArray(MBeanAttributeInfo[]::new);
    return new MBeanInfo(getClass().getName(), "Block cache figures under HBase's metric names", infos, null, null,
        null);
  }
}
