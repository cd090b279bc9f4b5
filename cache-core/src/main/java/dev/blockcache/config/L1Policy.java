package dev.blockcache.config;

import java.util.Locale;

/**
 * The L1 eviction policy named by {@code hfile.block.cache.policy}.
 *
 * <p>Thread-safety: immutable.
 */
public enum L1Policy {
  /** HBase's LruBlockCache semantics (single / multi / memory priorities). */
  LRU,
  /** Caffeine's W-TinyLFU, its entry bound derived from the heap capacity and the blocks' mean heap cost. */
  TINYLFU;

  /** The policy named {@code value} (case-insensitive, as HBase reads it). */
  public static L1Policy parse(String key, String value) {
    return switch (value.toUpperCase(Locale.ROOT)) {
      case "LRU" -> LRU;
      case "TINYLFU" -> TINYLFU;
      default -> throw new ConfigException(key, value, "LRU or TinyLFU");
    };
  }
}
