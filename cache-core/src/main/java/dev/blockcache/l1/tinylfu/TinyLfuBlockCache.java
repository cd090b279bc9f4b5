package dev.blockcache.l1.tinylfu;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.CacheStats;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.l1.Arguments;
import dev.blockcache.l1.ChainedBlock;
import dev.blockcache.l1.FileChains;
import dev.blockcache.l1.Insert;
import dev.blockcache.stats.StatsRecorder;
import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * An on-heap block cache on Caffeine's W-TinyLFU policy, holding at most {@code capacity} bytes of heap (each block's
 * bytes plus {@link HeapBlock#TINYLFU_ENTRY_OVERHEAD}) through an entry-count bound on Caffeine.
 *
 * <p>W-TinyLFU admits a new block only if it is estimated to be used more often than the block it would evict, which
 * resists scans better than LRU. Caffeine has no priorities: {@link CacheOptions#priority()} is ignored, as in
 * HBase's TinyLfuBlockCache. {@link #cacheBlock} copies the block onto the heap; {@link #handOver} keeps the caller's
 * heap array when it can.
 *
 * <h2>A count bound, not a weight bound</h2>
 * Caffeine bounded by weight lets its hill climber shrink the admission window down to one weight unit: with bytes as
 * the unit, to no block at all, so that every new block must beat the eviction victim's frequency at once and a
 * recency-friendly workload loses what plain (count-bounded) Caffeine keeps (docs/decisions.md, L1 TinyLfuBlockCache).
 * So Caffeine is bounded by entries ({@link CountBound}): {@code capacity / (minBlockSize + overhead)} at first, the expected block size
 * being the operator's ({@link TinyLfuConfig#minBlockSize()}). The cache keeps its own byte total and re-derives the
 * bound from the cached blocks' mean weight when they are heavier (the size passes the overshoot bound below: the
 * bound is lowered until the size is within the capacity) or lighter (the cache is at its bound with more than 1/16
 * of the capacity free: the bound is raised to what the capacity holds at that mean). Blocks of the expected size
 * never move the bound, and the cache then decides exactly as count-bounded Caffeine does.
 *
 * <h2>Maintenance and the size bound</h2>
 * Caffeine's maintenance (admission, eviction, the eviction listener) runs on the calling threads until
 * {@link #start()}, and on the cache's own maintenance thread ({@link MaintenanceThread}) from then until
 * {@link #close()}: a started cache's inserts only add to the map and Caffeine's write buffer, and the evicting happens
 * on another core, as in HBase's TinyLfuBlockCache (which gives Caffeine the common fork-join pool). A maintenance
 * thread that lags cannot let the cache grow without bound: the cache keeps its own weighted size (each block's weight
 * added before it is published, subtracted when it is evicted or removed), and an insert that leaves it above
 * {@code capacity + overshoot} runs Caffeine's maintenance on the inserting thread ({@link Cache#cleanUp()}) before it
 * returns, and lowers the count bound until the size is within the capacity. So, started or not:
 * <ul>
 *   <li>when no insert is in progress, {@link #size()} ≤ {@code capacity + overshoot};</li>
 *   <li>at any moment, {@link #size()} ≤ {@code capacity + overshoot} plus the weights of the inserts in progress
 *       (at most one block per inserting thread);</li>
 * </ul>
 * where {@code overshoot} is {@link #maxOvershoot()}: {@code capacity / 32} ({@link #OVERSHOOT_SHIFT}). Unstarted,
 * maintenance runs after every write and the size is at most the capacity after each insert. Size-based evictions
 * are counted from Caffeine's eviction listener; a maintenance run (on any thread) that evicted anything counts as one
 * eviction run.
 *
 * <p>Evict-by-file walks the file's chain of blocks ({@link FileChains}, linked through the cached
 * {@link ChainedBlock}s themselves), so it costs that file's blocks and no index node exists per block.
 *
 * <p>Thread-safety: safe for concurrent use (Caffeine's own guarantees). The file chains are guarded by one
 * {@code chainLock}; lock order: Caffeine's map locks (its eviction listener runs inside them), then
 * {@code chainLock}. Nothing is called on the map while {@code chainLock} is held.
 */
public final class TinyLfuBlockCache implements BlockCache {
  /**
   * The overshoot bound is the capacity shifted right by this (1/32 of the capacity): room for the maintenance
   * thread to keep up with bursts of inserts on its own core, small beside the heap share the cache is given.
   */
  public static final int OVERSHOOT_SHIFT = 5;

  private final TinyLfuConfig config;
  /**
   * Keyed by the blocks themselves ({@link KeyedBlock}: key fields inline, equal to a {@link LookupKey} of their key);
   * the value is the block's whole array, or the block when it does not span one ({@link KeyedBlock#mapValue()}).
   */
  private final Cache<KeyedBlock, Object> cache;
  /** The same cache, typed for lookups and removals by a {@link LookupKey}; never used to store. */
  private final Cache<Object, Object> lookups;
  private final ConcurrentMap<KeyedBlock, Object> map;
  /** {@link #map} typed for lookups and removals by a {@link LookupKey}; never used to store. */
  private final ConcurrentMap<Object, Object> lookupMap;
  private final Policy.Eviction<KeyedBlock, Object> eviction;
  /**
   * Guards {@link #fileChains} and the chain fields of every cached block; taken inside Caffeine's map locks. A
   * monitor rather than a {@code ReentrantLock}: the inserting and the maintenance thread take it for a few
   * instructions at a time, and a monitor spins briefly before it parks a waiter.
   */
  private final Object chainLock = new Object();
  /** Each file's blocks, for evict-by-file. Guarded by chainLock. */
  @GuardedBy("chainLock")
  private final FileChains fileChains = new FileChains();
  private final StatsRecorder stats = new StatsRecorder();
  private final LongAdder[] blockCounts = new LongAdder[BlockCategory.COUNT];
  /** Size-based evictions so far; a maintenance run that moves it counts as one eviction run. */
  private final AtomicLong sizeEvictions = new AtomicLong();
  /** The weights of the published blocks: Caffeine's weighted size without its lag behind the write buffer. */
  private final AtomicLong weightedSize = new AtomicLong();
  /** Runs Caffeine's maintenance: on the calling threads, or on its own thread once started. */
  private final MaintenanceThread maintenance = new MaintenanceThread(this::countedMaintenance);
  /** {@code capacity + overshoot}: an insert that leaves {@link #weightedSize} above it runs maintenance itself. */
  private final long cleanUpAbove;
  /** The entry count Caffeine is bounded by, re-derived from the blocks' weights. */
  private final CountBound countBound;
  private volatile boolean closed;

  /**
   * A cache whose Caffeine maintenance runs on the calling threads until {@link #start()}. Starts no thread.
   *
   * @throws IllegalStateException if the Caffeine on the classpath is older than the one this cache needs (see
   *     {@link CaffeineRequirement})
   */
  public TinyLfuBlockCache(TinyLfuConfig config) {
    CaffeineRequirement.check(Caffeine.class);
    this.config = Objects.requireNonNull(config, "config");
    this.cleanUpAbove = config.capacity() + maxOvershoot(config.capacity());
    for (int i = 0; i < blockCounts.length; i++) {
      blockCounts[i] = new LongAdder();
    }
    // No initial capacity: Caffeine would start its frequency sketch at once, sized by it, where plain Caffeine starts
    // it at half its maximum (a different policy early on, which lirs/backf at 50% showed as points).
    this.cache = Caffeine.newBuilder()
        .maximumSize(CountBound.initial(config))
        .executor(maintenance)
        .evictionListener(this::onEvicted)
        .build();
    this.map = cache.asMap();
    @SuppressWarnings("unchecked")
    Cache<Object, Object> byLookupKey = (Cache<Object, Object>) (Cache<?, ?>) cache;
    this.lookups = byLookupKey;
    this.lookupMap = byLookupKey.asMap();
    this.eviction = cache.policy().eviction().orElseThrow();
    this.countBound = new CountBound(config, weightedSize, map::size, eviction, this::countedMaintenance);
  }

  /** Starts the maintenance thread (a daemon named {@code tinylfu-maintenance}). */
  public TinyLfuBlockCache start() {
    return start(r -> {
      Thread t = new Thread(r, "tinylfu-maintenance");
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts the maintenance thread from {@code threadFactory}. */
  public TinyLfuBlockCache start(ThreadFactory threadFactory) {
    maintenance.start(threadFactory);
    return this;
  }

  /** How far above {@code capacity} the accounted size may be when no insert is in progress. */
  private static long maxOvershoot(long capacity) {
    return capacity >>> OVERSHOOT_SHIFT;
  }

  /** How far above the capacity {@link #size()} may be when no insert is in progress (see the class comment). */
  public long maxOvershoot() {
    return maxOvershoot(config.capacity());
  }

  /** Runs one of Caffeine's maintenance tasks, counting it as an eviction run if it evicted anything. */
  private void countedMaintenance(Runnable task) {
    long evictionsBefore = sizeEvictions.get();
    task.run();
    if (sizeEvictions.get() != evictionsBefore) {
      stats.evictionRun();
    }
  }

  private static long weight(ChainedBlock block) {
    return Math.min(Integer.MAX_VALUE, block.heapSize(HeapBlock.TINYLFU_ENTRY_OVERHEAD));
  }

  /** Caffeine's eviction listener: runs on the evicting thread, inside the map's lock for {@code key}. */
  private void onEvicted(KeyedBlock block, Object bytes, RemovalCause cause) {
    if (block == null || bytes == null) {
      return;
    }
    removed(block);
    if (cause.wasEvicted()) {
      sizeEvictions.incrementAndGet();
      stats.evicted(block.category());
    }
  }

  /**
   * {@inheritDoc} The cache keeps a heap copy; the caller's buffer is not retained. Caching a present key counts as
   * a read of it for Caffeine's policy (as HBase's TinyLfuBlockCache does), not as a hit.
   */
  @Override
  public CacheResult cacheBlock(BlockKey key, ByteBuf block, CacheOptions options) {
    Arguments.check(key, block, options);
    return counted(admit(key, block, options, Insert.COPY));
  }

  /**
   * {@inheritDoc} The cache keeps {@code block}'s array itself when netty's unpooled heap buffer owns it and the
   * readable bytes fill most of it, and copies otherwise ({@link HeapBlock#keepOrCopy}); it releases the caller's
   * reference before returning.
   */
  @Override
  public CacheResult handOver(BlockKey key, ByteBuf block, CacheOptions options) {
    try {
      Arguments.check(key, block, options);
      return counted(admit(key, block, options, Insert.HAND_OVER));
    } finally {
      Arguments.releaseHandedOver(block);
    }
  }

  private CacheResult counted(CacheResult result) {
    if (result.isFailure()) {
      stats.failedInsertion();
    }
    return result;
  }

  private CacheResult admit(BlockKey key, ByteBuf block, CacheOptions options, Insert insert) {
    if (closed) {
      return CacheResult.DISABLED;
    }
    if (block.readableBytes() > config.maxBlockSize()) {
      return CacheResult.TOO_LARGE;
    }
    // No copy is made for a present key. A hand-over usually keeps the caller's array, which costs nothing to wrap,
    // so it goes straight to putIfAbsent, which finds a present key too: one probe of the map instead of two.
    if (insert == Insert.COPY && lookups.getIfPresent(LookupKey.of(key)) != null) { // a read for the policy
      return CacheResult.ALREADY_CACHED;
    }
    KeyedBlock cached = new KeyedBlock(key, insert.heapBlock(block, options.category()));
    long weight = weight(cached);
    // Counted before it is published: its eviction, which may follow at once, subtracts what was added.
    blockCounts[options.category().ordinal()].increment();
    weightedSize.addAndGet(weight);
    if (map.putIfAbsent(cached, cached.mapValue()) != null) {
      blockCounts[options.category().ordinal()].decrement();
      weightedSize.addAndGet(-weight);
      return CacheResult.ALREADY_CACHED; // Caffeine's putIfAbsent counted a read of the present key for the policy
    }
    synchronized (chainLock) {
      fileChains.linkLocked(cached); // not if it was evicted or removed since it was published
    }
    // Checked after publishing, so that the last insert to finish sees every block published before it.
    if (weightedSize.get() > cleanUpAbove) {
      countBound.fit(cache::cleanUp, this::removeAll); // the executor lags, or the blocks are heavier than expected
    } else {
      countBound.raiseIfRoom();
    }
    return CacheResult.CACHED;
  }

  /** Removes every block (a block heavier than the whole capacity is the only one that needs it). */
  private void removeAll() {
    for (KeyedBlock block : map.keySet()) {
      if (map.remove(block, block.mapValue())) {
        removed(block);
      }
    }
  }

  /** The entry count Caffeine is bounded by now (see the class notes): for tests. */
  long countBound() {
    return countBound.get();
  }

  /**
   * {@inheritDoc} The view is read-only; releasing it never affects the cache.
   *
   * <p>This method only copies the key into the thread's {@link LookupKey} and calls the lookup,
   * {@link #getBlock(LookupKey, ReadOptions)}, which Caffeine's makes too large to inline wherever the JIT has
   * compiled it on its own: a caller that inlines this method then scalar-replaces its key and allocates only the
   * 56-byte view. Where the JIT compiles this method with the lookup inlined into it, callers do not inline it and a
   * key built per lookup is allocated too.
   */
  @Override
  public ByteBuf getBlock(BlockKey key, ReadOptions options) {
    return getBlock(LookupKey.of(key), options);
  }

  /** {@inheritDoc} Allocates only the view: the lookup goes through this thread's {@link LookupKey}. */
  @Override
  public ByteBuf getBlock(BlockFile file, long offset, ReadOptions options) {
    return getBlock(LookupKey.of(file, offset), options);
  }

  private ByteBuf getBlock(LookupKey key, ReadOptions options) {
    Object bytes = hit(key, options);
    if (bytes == null) {
      return null;
    }
    return bytes instanceof byte[] array ? HeapBlock.viewOfWhole(array) : ((HeapBlock) bytes).newView();
  }

  /**
   * {@inheritDoc} Allocates nothing: the reader gets this thread's reusable view of the heap copy. Copies the key as
   * {@link #getBlock(BlockKey, ReadOptions)} does; a key built per lookup is allocated only where the JIT does not
   * inline this method into the caller, which {@link #read(BlockFile, long, ReadOptions, BlockReader)} avoids.
   */
  @Override
  public boolean read(BlockKey key, ReadOptions options, BlockReader reader) {
    return read(LookupKey.of(key), options, reader);
  }

  /** {@inheritDoc} Allocates nothing: it lends this thread's reusable view, and takes no key. */
  @Override
  public boolean read(BlockFile file, long offset, ReadOptions options, BlockReader reader) {
    return read(LookupKey.of(file, offset), options, reader);
  }

  private boolean read(LookupKey key, ReadOptions options, BlockReader reader) {
    Objects.requireNonNull(reader, "reader");
    Object bytes = hit(key, options);
    if (bytes == null) {
      return false;
    }
    if (bytes instanceof byte[] array) {
      HeapBlock.readWhole(array, reader);
    } else {
      ((HeapBlock) bytes).read(reader);
    }
    return true;
  }

  /**
   * The map value of {@code key} (the block's whole array, or the block), its access recorded by Caffeine and counted
   * as a hit; or null after a miss. It takes the thread's lookup key, not the caller's {@link BlockKey}: this method
   * is too large for the JIT to inline into every caller, and a key passed to it would escape and be allocated on
   * each get.
   */
  private Object hit(LookupKey key, ReadOptions options) {
    Objects.requireNonNull(options, "options");
    Object bytes = closed ? null : lookups.getIfPresent(key);
    stats.lookup(options, bytes);
    return bytes;
  }

  @Override
  public boolean evictBlock(BlockKey key) {
    KeyedBlock[] removed = new KeyedBlock[1];
    // Caffeine hands the remapping function the stored key: the block, which the counts and chains need.
    lookupMap.computeIfPresent(LookupKey.of(key), (stored, bytes) -> {
      removed[0] = (KeyedBlock) stored;
      return null;
    });
    if (removed[0] == null) {
      return false;
    }
    removed(removed[0]);
    return true;
  }

  /** Takes a block that left the map out of the counts and its file's chain. */
  private void removed(ChainedBlock block) {
    blockCounts[block.category().ordinal()].decrement();
    weightedSize.addAndGet(-weight(block));
    drop(block);
  }

  private void drop(ChainedBlock block) {
    synchronized (chainLock) {
      fileChains.dropLocked(block);
    }
  }

  @Override
  public int evictBlocksByFile(String file) {
    Objects.requireNonNull(file, "file");
    List<ChainedBlock> blocks;
    synchronized (chainLock) {
      blocks = fileChains.takeLocked(file);
    }
    int removed = 0;
    for (ChainedBlock block : blocks) {
      KeyedBlock keyed = (KeyedBlock) block;
      if (map.remove(keyed, keyed.mapValue())) {
        removed(block);
        removed++;
      }
    }
    return removed;
  }

  /** The cached keys in the order Caffeine would evict them, coldest first, at most {@code limit}: for tests. */
  List<BlockKey> coldest(int limit) {
    cache.cleanUp();
    return eviction.coldest(limit).keySet().stream().map(KeyedBlock::key).toList();
  }

  /**
   * Runs Caffeine's pending maintenance (evictions) now, on the calling thread, and lowers the count bound if the
   * size is still above the capacity: the size is then within it.
   */
  public void cleanUp() {
    countBound.fit(cache::cleanUp, this::removeAll);
  }

  @Override
  public CacheStats stats() {
    long[] counts = new long[BlockCategory.COUNT];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = blockCounts[i].sum();
    }
    return stats.snapshot(config.capacity(), size(), counts);
  }

  @Override
  public long capacity() {
    return config.capacity();
  }

  /**
   * {@inheritDoc} The weights of the blocks in the map, pending evictions included: above the capacity by at most the
   * bound of the class comment.
   */
  @Override
  public long size() {
    return weightedSize.get();
  }

  @Override
  public long blockCount() {
    return map.size();
  }

  /** Stops the maintenance thread and drops every block; views held by readers stay valid until released. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    maintenance.stop();
    for (KeyedBlock block : map.keySet()) {
      if (map.remove(block, block.mapValue())) {
        removed(block);
      }
    }
    cache.cleanUp();
    synchronized (chainLock) {
      fileChains.clearLocked();
    }
  }
}
