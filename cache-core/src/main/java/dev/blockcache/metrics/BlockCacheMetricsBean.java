package dev.blockcache.metrics;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CacheStats;
import dev.blockcache.combined.CombinedBlockCache;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
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
 * <p>Thread-safety: safe for concurrent use (the cache's snapshots are).
 */
public final class BlockCacheMetricsBean implements DynamicMBean {
  private final BlockCache cache;
  private final Map<String, ToDoubleFunction<Snapshots>> attributes = new LinkedHashMap<>();

  /** The figures of {@code cache}, plus {@code extra} (name → reader), which must not reuse a built-in name. */
  public BlockCacheMetricsBean(BlockCache cache, Map<String, Supplier<Number>> extra) {
    this.cache = cache;
    defineTotals();
    defineTier("l1Cache", Snapshots::l1);
    defineTier("l2Cache", Snapshots::l2);
    for (BlockCategory category : BlockCategory.values()) {
      String name = category.name().toLowerCase(Locale.ROOT);
      attributes.put(name + "BlockHitCount", s -> s.all.hitCount(category));
      attributes.put(name + "BlockMissCount", s -> s.all.missCount(category));
    }
    extra.forEach((name, reader) -> {
      if (attributes.putIfAbsent(name, s -> reader.get().doubleValue()) != null) {
        throw new IllegalArgumentException("metric " + name + " is defined already");
      }
    });
  }

  private void defineTotals() {
    attributes.put("blockCacheHitCount", s -> s.all.hitCount());
    attributes.put("blockCacheMissCount", s -> s.all.missCount());
    attributes.put("blockCacheCountHitPercent", s -> 100 * s.all.hitRatio());
    attributes.put("blockCacheExpressHitPercent", s -> 100 * s.all.cachingHitRatio());
    attributes.put("blockCacheEvictionCount", s -> s.all.evictedBlockCount());
    attributes.put("blockCacheFailedInsertionCount", s -> s.all.failedInsertionCount());
    attributes.put("blockCacheSize", s -> s.all.size());
    attributes.put("blockCacheFreeSize", s -> s.all.freeSize());
    attributes.put("blockCacheCount", s -> s.all.blockCount());
    attributes.put("blockCacheDataBlockCount", s -> s.all.blockCount(BlockCategory.DATA));
  }

  private void defineTier(String prefix, java.util.function.Function<Snapshots, CacheStats> tier) {
    attributes.put(prefix + "HitCount", s -> valueOr0(tier.apply(s), CacheStats::hitCount));
    attributes.put(prefix + "MissCount", s -> valueOr0(tier.apply(s), CacheStats::missCount));
    attributes.put(prefix + "HitRatio", s -> valueOr0(tier.apply(s), CacheStats::hitRatio));
    attributes.put(prefix + "MissRatio", s -> valueOr0(tier.apply(s), CacheStats::missRatio));
    attributes.put(prefix + "EvictionCount", s -> valueOr0(tier.apply(s), CacheStats::evictedBlockCount));
    attributes.put(prefix + "Size", s -> valueOr0(tier.apply(s), CacheStats::size));
    attributes.put(prefix + "FreeSize", s -> valueOr0(tier.apply(s), CacheStats::freeSize));
    attributes.put(prefix + "Count", s -> valueOr0(tier.apply(s), CacheStats::blockCount));
  }

  private static double valueOr0(CacheStats stats, ToDoubleFunction<CacheStats> value) {
    return stats == null ? 0 : value.applyAsDouble(stats);
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
      if (cache instanceof CombinedBlockCache) {
        CombinedBlockCache combined = (CombinedBlockCache) cache;
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
    ToDoubleFunction<Snapshots> reader = attributes.get(name);
    if (reader == null) {
      throw new AttributeNotFoundException(name + " is not a block cache metric");
    }
    return reader.applyAsDouble(new Snapshots(cache));
  }

  @Override
  public AttributeList getAttributes(String[] names) {
    Snapshots snapshots = new Snapshots(cache);
    AttributeList list = new AttributeList();
    for (String name : names) {
      ToDoubleFunction<Snapshots> reader = attributes.get(name);
      if (reader != null) {
        list.add(new Attribute(name, reader.applyAsDouble(snapshots)));
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
    MBeanAttributeInfo[] infos = attributes.keySet().stream()
        .map(name -> new MBeanAttributeInfo(name, "double", name, true, false, false))
        .toArray(MBeanAttributeInfo[]::new);
    return new MBeanInfo(getClass().getName(), "Block cache figures under HBase's metric names", infos, null, null,
        null);
  }
}
