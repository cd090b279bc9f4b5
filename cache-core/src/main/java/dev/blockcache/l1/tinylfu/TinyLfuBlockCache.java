package dev.blockcache.l1.tinylfu;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.CacheStats;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.l1.Arguments;
import dev.blockcache.l1.FileIndex;
import dev.blockcache.l1.Insert;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.stats.StatsRecorder;
import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * An on-heap block cache on Caffeine's W-TinyLFU policy, weighted by the heap each block costs (block bytes plus
 * {@link HeapBlock#TINYLFU_ENTRY_OVERHEAD}).
 *
 * <p>W-TinyLFU admits a new block only if it is estimated to be used more often than the block it would evict, which
 * resists scans better than LRU. Caffeine has no priorities: {@link CacheOptions#priority()} is ignored, as in
 * HBase's TinyLfuBlockCache. Caffeine's maintenance runs on the calling threads (a same-thread executor), so the cache
 * starts no thread of its own. {@link #cacheBlock} copies the block onto the heap; {@link #handOver} keeps the caller's
 * heap array when it can. Size-based evictions are counted from Caffeine's eviction listener; an insert whose
 * maintenance evicted anything counts as one eviction run.
 *
 * <p>Thread-safety: safe for concurrent use (Caffeine's own guarantees).
 */
public final class TinyLfuBlockCache implements BlockCache {
  private final TinyLfuConfig config;
  private final Cache<BlockKey, HeapBlock> cache;
  private final ConcurrentMap<BlockKey, HeapBlock> map;
  private final Policy.Eviction<BlockKey, HeapBlock> eviction;
  private final FileIndex fileIndex = new FileIndex();
  private final StatsRecorder stats = new StatsRecorder();
  private final LongAdder[] blockCounts = new LongAdder[BlockCategory.COUNT];
  /** Size-based evictions so far; an insert that moves it counts as one eviction run. */
  private final AtomicLong sizeEvictions = new AtomicLong();
  private volatile boolean closed;

  /**
   * @throws IllegalStateException if the Caffeine on the classpath is older than the one this cache needs (see
   *     {@link CaffeineRequirement})
   */
  public TinyLfuBlockCache(TinyLfuConfig config) {
    CaffeineRequirement.check(Caffeine.class);
    this.config = Objects.requireNonNull(config, "config");
    for (int i = 0; i < blockCounts.length; i++) {
      blockCounts[i] = new LongAdder();
    }
    long expectedBlocks = Math.max(16, config.capacity() / (config.minBlockSize() + HeapBlock.TINYLFU_ENTRY_OVERHEAD));
    this.cache = Caffeine.newBuilder()
        .initialCapacity((int) Math.min(1 << 24, expectedBlocks))
        .maximumWeight(config.capacity())
        .weigher((BlockKey key, HeapBlock block) -> (int) Math.min(Integer.MAX_VALUE, block.heapSize(HeapBlock.TINYLFU_ENTRY_OVERHEAD)))
        .executor(Runnable::run)
        .evictionListener(this::onEvicted)
        .build();
    this.map = cache.asMap();
    this.eviction = cache.policy().eviction().orElseThrow();
  }

  private void onEvicted(BlockKey key, HeapBlock block, RemovalCause cause) {
    if (key == null || block == null) {
      return;
    }
    blockCounts[block.category().ordinal()].decrement();
    fileIndex.remove(key);
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
    if (cache.getIfPresent(key) != null) {
      return CacheResult.ALREADY_CACHED;
    }
    HeapBlock heapBlock = insert.heapBlock(block, options.category());
    long evictionsBefore = sizeEvictions.get();
    blockCounts[options.category().ordinal()].increment();
    fileIndex.add(key);
    if (map.putIfAbsent(key, heapBlock) != null) {
      blockCounts[options.category().ordinal()].decrement();
      return CacheResult.ALREADY_CACHED;
    }
    if (sizeEvictions.get() != evictionsBefore) {
      stats.evictionRun();
    }
    return CacheResult.CACHED;
  }

  /** {@inheritDoc} The view is read-only; releasing it never affects the cache. */
  @Override
  public ByteBuf getBlock(BlockKey key, ReadOptions options) {
    HeapBlock block = hit(key, options);
    return block == null ? null : block.newView();
  }

  /** {@inheritDoc} Allocates nothing: the reader gets this thread's reusable view of the heap copy. */
  @Override
  public boolean read(BlockKey key, ReadOptions options, BlockReader reader) {
    Objects.requireNonNull(reader, "reader");
    HeapBlock block = hit(key, options);
    if (block == null) {
      return false;
    }
    block.read(reader);
    return true;
  }

  /** The block of {@code key}, its access recorded by Caffeine and counted as a hit; or null after a miss. */
  private HeapBlock hit(BlockKey key, ReadOptions options) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(options, "options");
    HeapBlock block = closed ? null : cache.getIfPresent(key);
    if (block == null) {
      stats.miss(options);
      return null;
    }
    stats.hit(options);
    return block;
  }

  @Override
  public boolean evictBlock(BlockKey key) {
    HeapBlock removed = map.remove(Objects.requireNonNull(key, "key"));
    if (removed == null) {
      return false;
    }
    blockCounts[removed.category().ordinal()].decrement();
    fileIndex.remove(key);
    return true;
  }

  @Override
  public int evictBlocksByFile(String file) {
    int removed = 0;
    for (BlockKey key : fileIndex.removeFile(Objects.requireNonNull(file, "file"))) {
      if (evictBlock(key)) {
        removed++;
      }
    }
    return removed;
  }

  /** The cached keys in the order Caffeine would evict them, coldest first, at most {@code limit}: for tests. */
  List<BlockKey> coldest(int limit) {
    cache.cleanUp();
    return List.copyOf(eviction.coldest(limit).keySet());
  }

  /** Runs Caffeine's pending maintenance (evictions) now, on the calling thread. */
  public void cleanUp() {
    cache.cleanUp();
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

  @Override
  public long size() {
    return eviction.weightedSize().orElse(0L);
  }

  @Override
  public long blockCount() {
    return map.size();
  }

  /** Drops every block; views held by readers stay valid until released. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (BlockKey key : map.keySet()) {
      evictBlock(key);
    }
    cache.cleanUp();
    fileIndex.clear();
  }
}
