package dev.blockcache.sim.policy;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.function.LongFunction;

/**
 * Plain Caffeine (W-TinyLFU), bounded by entry count and keyed by the trace's keys ({@link #ofEntries}:
 * {@code maximumSize(capacity)}), bounded by entry count and keyed as our TinyLFU L1 is ({@link #ofBlockKeys}: the
 * same {@code BlockKey}s, so the same key hashes in the frequency sketch), or bounded by weight as HBase's
 * TinyLfuBlockCache bounds it ({@link #weighted}).
 *
 * <p>Caffeine's two modes are not the same policy: a weighted cache's hill climber may shrink the admission window
 * to one weight unit, under one block when a unit is a byte, and its frequency sketch starts at half the maximum
 * weight, sized by the entries present then; the same trace can give them hit ratios points apart even when every
 * entry weighs the same. Our L1 bounds Caffeine by count: {@link #ofBlockKeys} is what it should equal. Maintenance
 * (eviction) runs on the calling thread, so evictions
 * follow the replay instead of racing Caffeine's default ForkJoinPool. Caffeine still admits a small random share of
 * candidates (against hash flooding): figures vary a little between runs.
 *
 * <p>Thread-safety: not thread-safe (see {@link Policy}).
 */
public final class CaffeinePolicy implements Policy {
  private final Cache<Object, Boolean> cache;
  private final LongFunction<Object> keys;

  private CaffeinePolicy(Caffeine<Object, Object> builder, LongFunction<Object> keys) {
    this.cache = builder.executor(Runnable::run).build();
    this.keys = keys;
  }

  /** An empty cache of at most {@code capacity} trace keys. */
  public static CaffeinePolicy ofEntries(int capacity) {
    return new CaffeinePolicy(Caffeine.newBuilder().maximumSize(capacity), Long::valueOf);
  }

  /** An empty cache of at most {@code capacity} blocks, keyed by the {@code BlockKey}s of {@code blockSize} blocks. */
  public static CaffeinePolicy ofBlockKeys(int capacity, int blockSize) {
    return new CaffeinePolicy(Caffeine.newBuilder().maximumSize(capacity), new BlockKeys(blockSize)::of);
  }

  /**
   * An empty cache of {@code capacity} blocks of {@code blockSize} bytes that each weigh {@code entryWeight}, bounded
   * by weight as HBase's TinyLfuBlockCache bounds it: maximum weight {@code capacity × entryWeight}, initial capacity
   * {@code capacity}, keyed by the {@code BlockKey} an L1 would be asked for.
   */
  public static CaffeinePolicy weighted(int capacity, int blockSize, int entryWeight) {
    BlockKeys blockKeys = new BlockKeys(blockSize);
    return new CaffeinePolicy(Caffeine.newBuilder()
        .initialCapacity(capacity)
        .maximumWeight((long) capacity * entryWeight)
        .weigher((Object key, Object value) -> entryWeight), blockKeys::of);
  }

  /** Not counted: a reference policy has no device to write. */
  @Override
  public long writes() {
    return -1;
  }

  @Override
  public boolean access(long key) {
    Object k = keys.apply(key);
    if (cache.getIfPresent(k) != null) {
      return true;
    }
    cache.put(k, Boolean.TRUE);
    return false;
  }

  @Override
  public void close() {
    cache.invalidateAll();
    cache.cleanUp();
  }
}
