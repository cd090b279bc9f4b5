package dev.blockcache.config;

import java.util.List;
import java.util.Optional;

/**
 * What an hbase-site.xml asks for, validated: the L1 (its policy and config, or none when the block cache is
 * disabled), the L2 (when {@code hbase.bucketcache.ioengine} is set), and the keys that were reported rather than
 * applied. Made by {@link SiteConfigReader}.
 *
 * <p>Thread-safety: immutable.
 */
public final class SiteConfig {
  private final L1Policy policy;
  private final LruConfig lru;
  private final TinyLfuConfig tinyLfu;
  private final BucketCacheConfig l2;
  private final List<String> reports;
  /** The {@code hfile.block.cache.size} text that disabled the block cache, or null when it is enabled. */
  private final String disabledBy;

  SiteConfig(L1Policy policy, LruConfig lru, TinyLfuConfig tinyLfu, BucketCacheConfig l2, List<String> reports,
      String disabledBy) {
    this.disabledBy = disabledBy;
    this.policy = policy;
    this.lru = lru;
    this.tinyLfu = tinyLfu;
    this.l2 = l2;
    this.reports = List.copyOf(reports);
  }

  /** Whether there is a block cache at all ({@code hfile.block.cache.size} above 0.0001, or a memory size). */
  public boolean enabled() {
    return lru != null || tinyLfu != null;
  }

  /**
   * Why there is no block cache: the {@code hfile.block.cache.size} value (at or below 0.0001) that disabled it;
   * empty when the block cache is enabled.
   */
  public Optional<String> disabledBy() {
    return Optional.ofNullable(disabledBy);
  }

  /** The L1 policy {@code hfile.block.cache.policy} names. */
  public L1Policy policy() {
    return policy;
  }

  /** The LRU L1's config when the block cache is enabled and the policy is {@link L1Policy#LRU}. */
  public Optional<LruConfig> lru() {
    return Optional.ofNullable(lru);
  }

  /** The TinyLFU L1's config when the block cache is enabled and the policy is {@link L1Policy#TINYLFU}. */
  public Optional<TinyLfuConfig> tinyLfu() {
    return Optional.ofNullable(tinyLfu);
  }

  /** The L2's config when the block cache is enabled and {@code hbase.bucketcache.ioengine} is set. */
  public Optional<BucketCacheConfig> l2() {
    return Optional.ofNullable(l2);
  }

  /** The L1 capacity in bytes, 0 when the block cache is disabled. */
  public long l1Capacity() {
    return lru != null ? lru.capacity() : tinyLfu != null ? tinyLfu.capacity() : 0;
  }

  /**
   * One line per key that was present but not applied: storage-engine keys, unsupported HBase keys, unknown keys
   * under a cache prefix, keys of a disabled tier. Each line starts with the key.
   */
  public List<String> reportedKeys() {
    return reports;
  }
}
