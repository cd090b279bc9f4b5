package dev.blockcache.sim.policy;

import dev.blockcache.api.CachePriority;
import dev.blockcache.policy.PriorityEvictionPlanner;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A model of HBase's {@code LruBlockCache} with its default factors, for blocks of one size: what our L1 LRU
 * ({@code LruBlockCache} with CLOCK lists) is an approximation of.
 * <ul>
 *   <li>A block enters as single; a hit on a single block makes it multi (no block is in-memory in a trace).</li>
 *   <li>When an insert takes the cache above {@value #ACCEPTABLE} of its capacity, one pass frees down to
 *       {@value #MIN} of it: the bytes to free are split between the priorities as HBase splits them
 *       ({@link PriorityEvictionPlanner}, targets {@value #SINGLE_SHARE} / {@value #MULTI_SHARE} /
 *       {@value #MEMORY_SHARE} of the minimum size), and each priority gives its least recently accessed blocks (HBase
 *       orders by an access counter).</li>
 * </ul>
 * Sizes are counted in blocks: every block is accounted the same, so bytes and blocks give the same passes.
 *
 * <p>Thread-safety: not thread-safe (see {@link Policy}).
 */
public final class HBaseLruPolicy implements Policy {
  /** {@code hbase.lru.blockcache.acceptable.factor}'s default. */
  static final double ACCEPTABLE = 0.99;
  /** {@code hbase.lru.blockcache.min.factor}'s default. */
  static final double MIN = 0.95;
  /** {@code hbase.lru.blockcache.single.percentage}'s default. */
  static final double SINGLE_SHARE = 0.25;
  /** {@code hbase.lru.blockcache.multi.percentage}'s default. */
  static final double MULTI_SHARE = 0.50;
  /** {@code hbase.lru.blockcache.memory.percentage}'s default. */
  static final double MEMORY_SHARE = 0.25;
  /** Units a block is accounted as: fine enough that the factors' floors round as HBase's byte sizes do. */
  private static final long UNIT = 1024;

  private final long acceptable;
  private final long minSize;
  /** Single and multi blocks, each least recently accessed first. */
  private final LinkedHashMap<Long, Boolean> single = new LinkedHashMap<>(16, 0.75f, true);
  private final LinkedHashMap<Long, Boolean> multi = new LinkedHashMap<>(16, 0.75f, true);

  /** An empty cache of {@code capacity} blocks ({@code capacity >= 1}). */
  public HBaseLruPolicy(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity + ": expected at least 1 block");
    }
    long bytes = capacity * UNIT;
    this.acceptable = (long) Math.floor(bytes * ACCEPTABLE);
    this.minSize = (long) Math.floor(bytes * MIN);
  }

  /** Not counted: a reference policy has no device to write. */
  @Override
  public long writes() {
    return -1;
  }

  @Override
  public boolean access(long key) {
    if (multi.get(key) != null) {
      return true;
    }
    if (single.remove(key) != null) {
      multi.put(key, Boolean.TRUE);
      return true;
    }
    single.put(key, Boolean.TRUE);
    if (size() > acceptable) {
      evict();
    }
    return false;
  }

  private long size() {
    return (single.size() + (long) multi.size()) * UNIT;
  }

  private void evict() {
    long[] sizes = new long[CachePriority.COUNT];
    sizes[CachePriority.SINGLE.ordinal()] = single.size() * UNIT;
    sizes[CachePriority.MULTI.ordinal()] = multi.size() * UNIT;
    long[] targets = new long[CachePriority.COUNT];
    targets[CachePriority.SINGLE.ordinal()] = (long) Math.floor(minSize * SINGLE_SHARE);
    targets[CachePriority.MULTI.ordinal()] = (long) Math.floor(minSize * MULTI_SHARE);
    targets[CachePriority.MEMORY.ordinal()] = (long) Math.floor(minSize * MEMORY_SHARE);
    long[] plan = PriorityEvictionPlanner.plan(size() - minSize, sizes, targets,
        PriorityEvictionPlanner.Mode.NORMAL);
    free(single, plan[CachePriority.SINGLE.ordinal()]);
    free(multi, plan[CachePriority.MULTI.ordinal()]);
  }

  /** Evicts the least recently accessed blocks of {@code list} until {@code bytes} are freed. */
  private static void free(Map<Long, Boolean> list, long bytes) {
    Iterator<Long> oldest = list.keySet().iterator();
    for (long freed = 0; freed < bytes && oldest.hasNext(); freed += UNIT) {
      oldest.next();
      oldest.remove();
    }
  }

  @Override
  public void close() {
    single.clear();
    multi.clear();
  }
}
