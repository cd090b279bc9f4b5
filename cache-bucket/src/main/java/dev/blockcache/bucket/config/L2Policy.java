package dev.blockcache.bucket.config;

import dev.blockcache.config.ConfigException;
import java.util.Locale;

/**
 * The L2 admission and eviction policy named by {@value BucketCacheKeys#EVICTION_POLICY}.
 *
 * <p>Thread-safety: immutable.
 */
public enum L2Policy {
  /**
   * The default (W-TinyLFU): a block offered to a full cache enters a small admission window, and stays when it
   * leaves the window only if a frequency sketch (with aging) estimates it is used more often than the block it
   * would displace; eviction takes, within HBase's single / multi / memory priorities, the
   * least frequently used of a few unreferenced candidates, one block per admitted block, so the cache stays full.
   */
  TINYLFU,
  /**
   * HBase's BucketCache: every block is admitted; when no slot is free, eviction frees down to
   * {@code minfactor} (plus {@code extrafreefactor}) of the capacity in CLOCK order within the priorities.
   */
  HBASE;

  /** The value of {@value BucketCacheKeys#EVICTION_POLICY} that names this policy. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The policy named {@code value} (case-insensitive). @throws ConfigException naming {@code key} otherwise */
  static L2Policy parse(String key, String value) {
    String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    for (L2Policy p : values()) {
      if (p.id().equals(v)) {
        return p;
      }
    }
    throw new ConfigException(key, value, "tinylfu (the default) or hbase");
  }
}
