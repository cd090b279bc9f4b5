package dev.blockcache.site;

import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.config.L1Policy;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What an hbase-site.xml asks for, validated: the L1 (its policy and config, or none when the block cache is
 * disabled), the L2 (when {@code hbase.bucketcache.ioengine} is set), and the keys that were reported rather than
 * applied. Made by {@link SiteConfigReader}; a program changes a value in code with the {@code with...} methods and the
 * configs' {@code toBuilder()}, e.g. {@code site.withL2(site.l2().orElseThrow().toBuilder().capacity(bytes).build())},
 * without writing text back into a {@code Configuration}.
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

  /**
   * This site with its L2 replaced by {@code l2} (or removed, with {@code null}); everything else, the reported keys
   * included, unchanged.
   *
   * @throws IllegalStateException if the site disables the block cache (there is no tier to replace)
   */
  public SiteConfig withL2(BucketCacheConfig l2) {
    requireEnabled("an L2");
    return new SiteConfig(policy, lru, tinyLfu, l2, reports, disabledBy);
  }

  /**
   * This site with its LRU L1 replaced by {@code config}.
   *
   * @throws IllegalArgumentException if the site's L1 policy is not {@link L1Policy#LRU}
   * @throws IllegalStateException if the site disables the block cache
   */
  public SiteConfig withLru(LruConfig config) {
    requireEnabled("an L1");
    requirePolicy(L1Policy.LRU);
    return new SiteConfig(policy, Objects.requireNonNull(config, "config"), null, l2, reports, disabledBy);
  }

  /**
   * This site with its TinyLFU L1 replaced by {@code config}.
   *
   * @throws IllegalArgumentException if the site's L1 policy is not {@link L1Policy#TINYLFU}
   * @throws IllegalStateException if the site disables the block cache
   */
  public SiteConfig withTinyLfu(TinyLfuConfig config) {
    requireEnabled("an L1");
    requirePolicy(L1Policy.TINYLFU);
    return new SiteConfig(policy, null, Objects.requireNonNull(config, "config"), l2, reports, disabledBy);
  }

  private void requireEnabled(String tier) {
    if (!enabled()) {
      throw new IllegalStateException("cannot set " + tier + ": the block cache is disabled by "
          + SiteConfigReader.L1_SIZE + "=" + disabledBy);
    }
  }

  private void requirePolicy(L1Policy wanted) {
    if (policy != wanted) {
      throw new IllegalArgumentException("the site's L1 policy is " + policy + ", not " + wanted + " ("
          + SiteConfigReader.L1_POLICY + ")");
    }
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
