package dev.blockcache.combined;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.CacheStats;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.l1.Arguments;
import io.netty.buffer.ByteBuf;
import java.util.Objects;

/**
 * HBase 2.x's combined block cache: INDEX, BLOOM and META blocks live in the L1 (on heap), DATA blocks in the L2.
 * A block's category names its tier, so a get looks in exactly one tier and a put goes to exactly one; a block never
 * lives in both.
 *
 * <p>Ownership is the {@link BlockCache} contract, passed through unchanged: {@link #cacheBlock} copies (the tier
 * does) and the caller keeps its buffer; {@link #handOver} gives the caller's reference to the tier;
 * {@link #getBlock} returns the tier's block, of which the caller owns one reference and must release it. This cache
 * owns both tiers and closes them.
 *
 * <p>Evicting one key, which carries no category, asks both tiers. Stats are kept by the tiers: {@link #stats()} is
 * their sum, {@link #l1Stats()} and {@link #l2Stats()} each tier's own.
 *
 * <p>Thread-safety: as safe as its tiers, which every {@link BlockCache} is: safe for concurrent use.
 */
public final class CombinedBlockCache implements BlockCache {
  private final BlockCache l1;
  private final BlockCache l2;

  /** A cache over {@code l1} (index, bloom, meta) and {@code l2} (data); it owns and closes both. */
  public CombinedBlockCache(BlockCache l1, BlockCache l2) {
    this.l1 = Objects.requireNonNull(l1, "l1");
    this.l2 = Objects.requireNonNull(l2, "l2");
    if (l1 == l2) {
      throw new IllegalArgumentException("the L1 and the L2 must be two caches");
    }
  }

  /** The tier where blocks of {@code category} live. */
  public BlockCache tierOf(BlockCategory category) {
    return category == BlockCategory.DATA ? l2 : l1;
  }

  /** Caches a copy in the tier of {@code options.category()}; the caller keeps its reference to {@code block}. */
  @Override
  public CacheResult cacheBlock(BlockKey key, ByteBuf block, CacheOptions options) {
    return tierOf(Objects.requireNonNull(options, "options").category()).cacheBlock(key, block, options);
  }

  /**
   * Hands {@code block} over to the tier of {@code options.category()}, which takes the caller's reference whatever
   * it returns (and releases it, or keeps the buffer, as its own {@link BlockCache#handOver} says); with null
   * {@code options} this cache releases {@code block} itself before throwing.
   */
  @Override
  public CacheResult handOver(BlockKey key, ByteBuf block, CacheOptions options) {
    if (options == null) {
      Arguments.releaseHandedOver(block);
      throw new NullPointerException("options");
    }
    return tierOf(options.category()).handOver(key, block, options);
  }

  /**
   * Looks in the tier of {@code options.category()} only.
   *
   * @return the block, of which the caller owns one reference and must release it; or {@code null} on a miss
   */
  @Override
  public ByteBuf getBlock(BlockKey key, ReadOptions options) {
    return tierOf(Objects.requireNonNull(options, "options").category()).getBlock(key, options);
  }

  /** Looks in the tier of {@code options.category()} only, with that tier's own get by handle. */
  @Override
  public ByteBuf getBlock(BlockFile file, long offset, ReadOptions options) {
    return tierOf(Objects.requireNonNull(options, "options").category()).getBlock(file, offset, options);
  }

  /** Reads through the tier of {@code options.category()} only, with that tier's own scoped read. */
  @Override
  public boolean read(BlockKey key, ReadOptions options, BlockReader reader) {
    return tierOf(Objects.requireNonNull(options, "options").category()).read(key, options, reader);
  }

  /** Reads through the tier of {@code options.category()} only, with that tier's own scoped read by handle. */
  @Override
  public boolean read(BlockFile file, long offset, ReadOptions options, BlockReader reader) {
    return tierOf(Objects.requireNonNull(options, "options").category()).read(file, offset, options, reader);
  }

  /** Removes {@code key} from whichever tier holds it; a caller holding the block keeps it until it releases it. */
  @Override
  public boolean evictBlock(BlockKey key) {
    Objects.requireNonNull(key, "key");
    boolean fromL1 = l1.evictBlock(key);
    boolean fromL2 = l2.evictBlock(key);
    return fromL1 || fromL2;
  }

  /** Removes every block of {@code file} from both tiers. */
  @Override
  public int evictBlocksByFile(String file) {
    Objects.requireNonNull(file, "file");
    return l1.evictBlocksByFile(file) + l2.evictBlocksByFile(file);
  }

  /** Both tiers' counters added up. */
  @Override
  public CacheStats stats() {
    return l1.stats().plus(l2.stats());
  }

  /** The L1's own counters (HBase's {@code l1Cache*} metrics). */
  public CacheStats l1Stats() {
    return l1.stats();
  }

  /** The L2's own counters (HBase's {@code l2Cache*} metrics). */
  public CacheStats l2Stats() {
    return l2.stats();
  }

  /** The L1 tier, for its own metrics; this cache still owns it. */
  public BlockCache l1() {
    return l1;
  }

  /** The L2 tier, for its own metrics; this cache still owns it. */
  public BlockCache l2() {
    return l2;
  }

  @Override
  public long capacity() {
    return l1.capacity() + l2.capacity();
  }

  @Override
  public long size() {
    return l1.size() + l2.size();
  }

  @Override
  public long blockCount() {
    return l1.blockCount() + l2.blockCount();
  }

  /** Closes the L2, then the L1 (each stops its threads); blocks callers hold stay valid until released. */
  @Override
  public void close() {
    try {
      l2.close();
    } finally {
      l1.close();
    }
  }
}
