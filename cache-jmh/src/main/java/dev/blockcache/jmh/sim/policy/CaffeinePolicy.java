package dev.blockcache.jmh.sim.policy;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Plain Caffeine ({@code Caffeine.newBuilder().maximumSize(capacity)}, W-TinyLFU) keyed by the trace's keys: the
 * reference for what our TinyLFU L1 adds or loses by weighing blocks in bytes. Maintenance (eviction) runs on the
 * calling thread, so evictions follow the replay instead of racing Caffeine's default ForkJoinPool. Caffeine still
 * admits a small random share of candidates (against hash flooding): figures vary a little between runs.
 *
 * <p>Thread-safety: not thread-safe (see {@link Policy}).
 */
public final class CaffeinePolicy implements Policy {
  private final Cache<Long, Boolean> cache;

  /** An empty cache of at most {@code capacity} keys. */
  public CaffeinePolicy(int capacity) {
    this.cache = Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run).build();
  }

  /** Not counted: a reference policy has no device to write. */
  @Override
  public long writes() {
    return -1;
  }

  @Override
  public boolean access(long key) {
    if (cache.getIfPresent(key) != null) {
      return true;
    }
    cache.put(key, Boolean.TRUE);
    return false;
  }

  @Override
  public void close() {
    cache.invalidateAll();
    cache.cleanUp();
  }
}
