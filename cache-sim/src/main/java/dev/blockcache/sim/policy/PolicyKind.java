package dev.blockcache.sim.policy;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.L2Policy;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.l1.tinylfu.TinyLfuBlockCache;
import dev.blockcache.sim.trace.Trace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Locale;

/**
 * The caches a simulation can replay a trace through, each sized to hold {@code blocks} blocks. The real caches are
 * configured as a new user would: defaults everywhere but the capacity, which is {@code blocks} times what one block
 * is accounted as.
 *
 * <p>Thread-safety: stateless.
 */
public enum PolicyKind {
  /** The reference LRU ({@link LruPolicy}). */
  LRU("LRU") {
    @Override
    Policy create(Trace trace, int blocks, CacheSetup setup) {
      return new LruPolicy(blocks);
    }
  },
  /** Belady's OPT ({@link OptimalPolicy}): the bound. */
  OPT("OPT") {
    @Override
    Policy create(Trace trace, int blocks, CacheSetup setup) {
      return new OptimalPolicy(trace, blocks);
    }
  },
  /** Plain Caffeine by entry count ({@link CaffeinePolicy#ofEntries}). */
  CAFFEINE("Caffeine") {
    @Override
    Policy create(Trace trace, int blocks, CacheSetup setup) {
      return CaffeinePolicy.ofEntries(blocks);
    }
  },
  /**
   * Plain Caffeine by weight, as HBase's TinyLfuBlockCache bounds it ({@link CaffeinePolicy#weighted}): where a
   * byte-weighted window falls short of {@link #CAFFEINE} (our {@link #L1_TINYLFU} bounds Caffeine by count).
   */
  CAFFEINE_WEIGHTED("Caffeine weighted") {
    @Override
    Policy create(Trace trace, int blocks, CacheSetup setup) {
      int weight = setup.blockSize() + HeapBlock.TINYLFU_ENTRY_OVERHEAD;
      return CaffeinePolicy.weighted(blocks, setup.blockSize(), weight);
    }
  },
  /** A model of HBase's {@code LruBlockCache} ({@link HBaseLruPolicy}): what {@link #L1_LRU} approximates. */
  HBASE_LRU("HBase LRU") {
    @Override
    Policy create(Trace trace, int blocks, CacheSetup setup) {
      return new HBaseLruPolicy(blocks);
    }
  },
  /**
   * Our L1 {@link LruBlockCache}, not started (it evicts on the inserting thread), HBase's default factors: it
   * evicts from 99% down to 95% of its capacity.
   */
  L1_LRU("L1 LRU") {
    @Override
    Policy create(Trace trace, int blocks, CacheSetup setup) {
      long capacity = l1Capacity(blocks, setup, HeapBlock.LRU_ENTRY_OVERHEAD);
      LruBlockCache cache = new LruBlockCache(LruConfig.builder(capacity).build());
      return new BlockCachePolicy(cache, setup.blockSize(), PolicyKind::nothing);
    }
  },
  /** Our L1 {@link TinyLfuBlockCache} with the default config. */
  L1_TINYLFU("L1 TinyLFU") {
    @Override
    Policy create(Trace trace, int blocks, CacheSetup setup) {
      // The expected block size is the blocks' size, as an operator sets it: it sizes Caffeine's frequency sketch.
      TinyLfuConfig config = TinyLfuConfig.of(l1Capacity(blocks, setup, HeapBlock.TINYLFU_ENTRY_OVERHEAD),
          TinyLfuConfig.DEFAULT_MAX_BLOCK_SIZE, setup.blockSize());
      TinyLfuBlockCache cache = new TinyLfuBlockCache(config);
      return new BlockCachePolicy(cache, setup.blockSize(), PolicyKind::nothing);
    }
  },
  /**
   * Our L2 {@link BucketCache} on a memory engine with one item size (the smallest that holds a block and its
   * header) and {@link #l2Slots} slots, default factors; every miss is written before the next access
   * ({@link L2Writes}).
   */
  L2("L2") {
    @Override
    Policy create(Trace trace, int blocks, CacheSetup setup) {
      return l2(blocks, setup, L2Policy.TINYLFU);
    }
  },
  /** As {@link #L2} with {@code hbase.bucketcache.eviction.policy=hbase}: HBase's BucketCache behaviour. */
  L2_HBASE("L2 hbase") {
    @Override
    Policy create(Trace trace, int blocks, CacheSetup setup) {
      return l2(blocks, setup, L2Policy.HBASE);
    }
  };

  /** An L2 of {@link #l2Slots} slots of one item size under {@code policy}. */
  private static Policy l2(int blocks, CacheSetup setup, L2Policy policy) {
    int itemSize = l2ItemSize(setup.blockSize());
    BucketCacheConfig.Builder config = BucketCacheConfig.builder(setup.l2Engine(), (long) l2Slots(blocks) * itemSize)
        .bucketSizes(itemSize)
        .evictionPolicy(policy)
        .writerInline(setup.l2Writes() == L2Writes.INLINE);
    try {
      // DRAINED waits until every block is written (mostly on this thread: see BucketCache.awaitWritten) before the
      // next access, and INLINE writes on this thread: a replay is deterministic either way.
      BucketCache cache = BucketCache.create(config.build());
      Runnable afterInsert = setup.l2Writes() == L2Writes.DRAINED ? () -> drain(cache) : PolicyKind::nothing;
      return new BlockCachePolicy(cache, setup.blockSize(), afterInsert);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the L2", e);
    }
  }

  /** How long one drain may take before the replay fails: far beyond one block's write. */
  private static final Duration DRAIN_BOUND = Duration.ofMinutes(1);

  /** Waits for {@code cache}'s writers; a replay that cannot drain fails rather than counting misses it caused. */
  private static void drain(BucketCache cache) {
    try {
      if (!cache.awaitWritten(DRAIN_BOUND)) {
        throw new IllegalStateException("the L2 did not drain its writers within " + DRAIN_BOUND);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("replay interrupted while the L2 drained", e);
    }
  }

  /** The after-insert step of a cache that needs none. */
  private static void nothing() {}

  private final String label;

  PolicyKind(String label) {
    this.label = label;
  }

  /** A new, empty cache of {@code blocks} blocks ({@code blocks >= 1}) that will replay {@code trace}. */
  abstract Policy create(Trace trace, int blocks, CacheSetup setup);

  /** As {@link #create}, public for the simulator. */
  public Policy newPolicy(Trace trace, int blocks, CacheSetup setup) {
    if (blocks < 1) {
      throw new IllegalArgumentException(id() + ": " + blocks + " blocks: expected at least 1");
    }
    return create(trace, blocks, setup);
  }

  /**
   * Whether the cache's hit ratio can change when only the keys' labels change: true for every cache that hashes keys
   * into its decisions (a sketch, an index's order, random admission), false for the exact reference policies, which
   * compare keys and never hash them into a decision.
   */
  public boolean hashesKeys() {
    return this != LRU && this != OPT && this != HBASE_LRU;
  }

  /** The column header of the report. */
  public String label() {
    return label;
  }

  /** The command-line name: lower case, {@code -} for {@code _} ({@code l1-tinylfu}). */
  public String id() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The kind named {@code id}; the error lists the accepted names. */
  public static PolicyKind of(String id) {
    for (PolicyKind kind : values()) {
      if (kind.id().equalsIgnoreCase(id.strip())) {
        return kind;
      }
    }
    StringBuilder accepted = new StringBuilder();
    for (PolicyKind kind : values()) {
      accepted.append(accepted.length() == 0 ? "" : ", ").append(kind.id());
    }
    throw new IllegalArgumentException("policy '" + id + "' is unknown; accepted: " + accepted);
  }

  /**
   * An L1's capacity for {@code blocks} blocks: each is accounted as its bytes plus {@code entryOverhead}, the
   * overhead that L1's policy accounts per entry.
   */
  static long l1Capacity(int blocks, CacheSetup setup, int entryOverhead) {
    return (long) blocks * (setup.blockSize() + entryOverhead);
  }

  /** The L2's item size: header (with the simulator's file names) and block, rounded up to the item alignment. */
  static int l2ItemSize(int blockSize) {
    int stored = BlockHeader.headerLength(BlockKeys.FILE_NAME_LENGTH) + blockSize;
    int unit = BucketAllocator.ITEM_ALIGNMENT;
    return (stored + unit - 1) / unit * unit;
  }

  /**
   * The L2's slots for {@code blocks} blocks: rounded up to whole buckets of
   * {@value BucketAllocator#MIN_ITEMS_OF_LARGEST_PER_BUCKET} slots (the allocator's unit for a single item size), so
   * at most 3 more than the other policies hold.
   */
  public static int l2Slots(int blocks) {
    int perBucket = BucketAllocator.MIN_ITEMS_OF_LARGEST_PER_BUCKET;
    return (blocks + perBucket - 1) / perBucket * perBucket;
  }
}
