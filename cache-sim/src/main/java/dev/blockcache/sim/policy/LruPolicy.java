package dev.blockcache.sim.policy;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The reference LRU: exactly {@code capacity} keys, the least recently accessed one evicted first. It is the
 * textbook policy the real caches' LRU approximations (HBase's priorities, our CLOCK lists) are compared with.
 *
 * <p>Thread-safety: not thread-safe (see {@link Policy}).
 */
public final class LruPolicy implements Policy {
  /** Keys in access order, least recent first; never more than {@code capacity}. */
  private final LinkedHashMap<Long, Boolean> keys;

  /** An empty LRU cache of {@code capacity} keys ({@code capacity >= 1}). */
  public LruPolicy(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity + ": expected at least 1 key");
    }
    this.keys = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
        return size() > capacity;
      }
    };
  }

  /** Not counted: a reference policy has no device to write. */
  @Override
  public long writes() {
    return -1;
  }

  @Override
  public boolean access(long key) {
    if (keys.get(key) != null) {
      return true;
    }
    keys.put(key, Boolean.TRUE);
    return false;
  }

  @Override
  public void close() {
    keys.clear();
  }
}
