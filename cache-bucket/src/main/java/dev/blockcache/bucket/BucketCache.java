package dev.blockcache.bucket;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.CacheStats;
import dev.blockcache.api.CachePriority;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.engine.ChannelIo;
import dev.blockcache.bucket.engine.FileEngineOptions;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.engine.IoEngineRegistry;
import dev.blockcache.bucket.engine.PageCache;
import dev.blockcache.bucket.engine.device.DeviceModelIo;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.write.PendingWrite;
import dev.blockcache.bucket.write.QueueWait;
import dev.blockcache.bucket.write.WriterPipeline;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.BucketCacheConfig;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.Iterator;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The L2 cache: blocks in slots of an {@link IoEngine}, found through a compact {@link dev.blockcache.bucket.index.BlockIndex},
 * written by a bounded {@link WriterPipeline}, read as zero-copy views on memory engines.
 *
 * <h2>Life of an entry</h2>
 * <ol>
 *   <li><b>Waiting.</b> {@code cacheBlock} copies the block to the heap, puts it in the RAM cache (where gets find it)
 *       and queues it for its writer; a full queue fails the call with {@link CacheResult#QUEUE_FULL}.</li>
 *   <li><b>Written.</b> A writer allocates a slot (evicting if needed, see {@link SpaceReclaimer}), writes header and
 *       block, maps the key to the slot in the index, then drops the heap copy.</li>
 *   <li><b>Read.</b> A get pins the slot and hands out a view; see {@link SlotReader}.</li>
 *   <li><b>Removed.</b> Eviction, {@code evictBlock}, {@code evictBlocksByFile} or {@code close} take the entry out of
 *       the index (exactly once: the index removes an entry once) and ask the pin table to free the slot.</li>
 *   <li><b>Freed.</b> The slot returns to the allocator when the last reader that pinned it releases its view.</li>
 * </ol>
 *
 * <h2>Ownership</h2>
 * As for every {@link BlockCache}: {@link #cacheBlock} copies and the caller keeps its buffer; {@link #getBlock}
 * returns a block of which the caller owns one reference and must release it.
 *
 * <p>With {@code hbase.bucketcache.writer.inline=true} (memory engines only) steps 1 and 2 happen on the caller's
 * thread inside {@code cacheBlock}, with no RAM cache and no queue; see {@link InlineWriter}.
 *
 * <p>Lifecycle: the constructor starts no thread; {@link #start()} starts the writers. Without it, blocks wait until
 * {@link #drainWriters()} writes them on the calling thread (what tests do).
 *
 * <p>Thread-safety: safe for concurrent use by any number of threads.
 */
public final class BucketCache implements BlockCache {
  /** Bytes per engine segment to aim for: whole buckets, few enough segments for a small table, ~16 MiB each. */
  private static final long TARGET_SEGMENT_BYTES = 16L << 20;

  private static final AtomicInteger INSTANCES = new AtomicInteger();

  private final BucketCacheParts parts;
  private final WriterPipeline pipeline;
  private final SlotReader reader;
  /** Writes on the calling thread ({@code hbase.bucketcache.writer.inline}), or null: queued for the writers. */
  private final InlineWriter inline;
  /** Warm restart (checkpoint and restore), or null without {@code hbase.bucketcache.persistent.path}. */
  private final BucketPersistence persistence;
  private final int instance = INSTANCES.incrementAndGet();
  private volatile boolean closed;

  /**
   * A cache on a new engine made from {@code config.ioEngine()} by the built-in registry, file engines opened with
   * the config's O_DIRECT and device-model settings.
   */
  public static BucketCache create(BucketCacheConfig config) throws IOException {
    return create(config, IoEngineRegistry.withBuiltins(fileEngineOptions(config)));
  }

  /** The file-engine options {@code config} asks for. */
  public static FileEngineOptions fileEngineOptions(BucketCacheConfig config) {
    return new FileEngineOptions(PageCache.directIo(config.fileDirectIo()), DeviceModelIo.wrap(ChannelIo.PLAIN, config.deviceModel()));
  }

  /** A cache on a new engine made from {@code config.ioEngine()} by {@code registry}; the cache owns the engine. */
  public static BucketCache create(BucketCacheConfig config, IoEngineRegistry registry) throws IOException {
    return new BucketCache(config,
        registry.create(config.ioEngine(), engineCapacity(config), engineSegmentSize(config)));
  }

  /** The bytes of engine {@link #create} makes for {@code config}: its capacity rounded down to whole buckets. */
  public static long engineCapacity(BucketCacheConfig config) {
    return BucketAllocator.usableCapacity(config.capacity(), config.bucketSizes());
  }

  /** The engine segment size {@link #create} uses for {@code config}. */
  public static int engineSegmentSize(BucketCacheConfig config) {
    return segmentSize(config.bucketCapacity());
  }

  /**
   * How many entries the index of a cache on an engine of {@code engineCapacity} bytes is laid out for: one per
   * 64 KiB, between 1,024 and 2^20 (it grows past that on demand).
   */
  public static int expectedIndexEntries(long engineCapacity) {
    return (int) Math.min(1 << 20, Math.max(1024, engineCapacity / (64 * 1024)));
  }

  /** The engine segment size for a bucket size: a whole number of buckets, at most 2 GiB. */
  static int segmentSize(long bucketCapacity) {
    long buckets = Math.max(1, TARGET_SEGMENT_BYTES / bucketCapacity);
    return (int) Math.min(buckets * bucketCapacity, (Integer.MAX_VALUE / bucketCapacity) * bucketCapacity);
  }

  /** A cache over {@code engine}, which it owns and closes. */
  public BucketCache(BucketCacheConfig config, IoEngine engine) {
    this(config, engine, System::currentTimeMillis);
  }

  /** As {@link #BucketCache(BucketCacheConfig, IoEngine)} with the clock (ms) of the IO-error window injected. */
  BucketCache(BucketCacheConfig config, IoEngine engine, LongSupplier clockMs) {
    if (engine.segmentSize() % config.bucketCapacity() != 0) {
      throw new IllegalArgumentException("engine segment size " + engine.segmentSize()
          + " is not a multiple of the bucket capacity " + config.bucketCapacity());
    }
    this.parts = new BucketCacheParts(config, engine, expectedIndexEntries(engine.capacity()), clockMs);
    this.pipeline = new WriterPipeline(config.writerThreads(), config.writerQueueLength(),
        config.queueAdditionWaitTimeMs(), new SlotWriter(parts));
    this.reader = new SlotReader(parts);
    this.inline = config.writerInline() ? new InlineWriter(parts, reader) : null;
    this.persistence = BucketPersistence.create(parts);
  }

  /** Restores the persisted index (if configured), then starts the checkpoint and writer threads. */
  public void start() {
    if (persistence != null) {
      persistence.start("bucketcache-" + instance + "-checkpoint");
    }
    if (inline != null) {
      return; // blocks are written by cacheBlock's caller: no writer thread to start
    }
    AtomicInteger n = new AtomicInteger();
    ThreadFactory factory = r -> {
      Thread t = new Thread(r, "bucketcache-" + instance + "-writer-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
    pipeline.start(factory);
  }

  /**
   * Blocks until every block accepted before the call has been written (or dropped and counted), when no other
   * thread caches blocks meanwhile (see {@link WriterPipeline#awaitIdle()}).
   */
  public void drainWriters() {
    try {
      pipeline.awaitIdle();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public CacheResult cacheBlock(BlockKey key, ByteBuf block, CacheOptions options) {
    return cacheBlock(key, block, options, QueueWait.CONFIGURED);
  }

  /**
   * As {@link #cacheBlock(BlockKey, ByteBuf, CacheOptions)}; {@code wait} says whether a full writer queue may be
   * waited on ({@code hbase.bucketcache.queue.addition.waittime}) or fails the call at once. The caller keeps its
   * reference to {@code block}.
   */
  public CacheResult cacheBlock(BlockKey key, ByteBuf block, CacheOptions options, QueueWait wait) {
    CacheResult result = admit(key, block, options, wait);
    if (result.isFailure()) {
      parts.fail(result);
    }
    return result;
  }

  private CacheResult admit(BlockKey key, ByteBuf block, CacheOptions options, QueueWait wait) {
    if (closed) {
      return CacheResult.DISABLED;
    }
    if (parts.ioErrors.disabled()) {
      parts.ioErrors.droppedPut();
      return CacheResult.DISABLED;
    }
    if (!BlockHeader.nameFits(key)) {
      return CacheResult.TOO_LARGE; // the key's file name does not fit the slot header
    }
    long stored = (long) BlockHeader.headerLength(key) + block.readableBytes();
    if (stored > parts.allocator.maxItemSize()) {
      return CacheResult.TOO_LARGE;
    }
    if (parts.index.peek(key) != IndexEntry.ABSENT) {
      return CacheResult.ALREADY_CACHED;
    }
    CacheResult declined = parts.admission.admit(key, (int) stored);
    if (declined != null) {
      return declined;
    }
    if (inline != null) {
      return inline.write(key, block, options, (int) stored);
    }
    CachePriority priority = options.priority();
    PendingWrite write = new PendingWrite(key, HeapBlock.copyOf(block, options.category()), priority);
    if (parts.ramCache.putIfAbsent(write) != null) {
      return CacheResult.ALREADY_CACHED;
    }
    // Looked at again after entering the RAM cache: a writer publishes a block in the index before it leaves the
    // RAM cache, so a block that left it between the first look and putIfAbsent is in the index now.
    if (parts.index.peek(key) != IndexEntry.ABSENT) {
      parts.ramCache.remove(write);
      return CacheResult.ALREADY_CACHED;
    }
    if (!pipeline.submit(write, wait)) {
      parts.ramCache.remove(write);
      return CacheResult.QUEUE_FULL;
    }
    return CacheResult.CACHED;
  }

  @Override
  public ByteBuf getBlock(BlockKey key, ReadOptions options) {
    ByteBuf block = closed || parts.ioErrors.disabled() ? null : lookup(key);
    if (block == null) {
      parts.stats.miss(options);
    } else {
      parts.stats.hit(options);
    }
    return block;
  }

  /**
   * {@inheritDoc} Allocates nothing for a block in the RAM cache or in a zero-copy memory engine's slot (pinned for
   * the reader's call); other engines read the block as {@link #getBlock} does and lend it.
   */
  @Override
  public boolean read(BlockKey key, ReadOptions options, BlockReader reader) {
    boolean hit = !closed && !parts.ioErrors.disabled() && lookup(key, reader);
    if (hit) {
      parts.stats.hit(options);
    } else {
      parts.stats.miss(options);
    }
    return hit;
  }

  /** {@link #lookup(BlockKey)}'s order, lending the block to {@code reader} instead of returning it. */
  private boolean lookup(BlockKey key, BlockReader reader) {
    PendingWrite waiting = parts.ramCache.get(key);
    if (waiting != null) {
      waiting.block().read(reader);
      return true;
    }
    long entry = parts.index.get(key);
    return entry != IndexEntry.ABSENT && this.reader.read(key, entry, reader);
  }

  /**
   * The RAM cache is looked at before the index: a writer publishes a block in the index before it takes the block
   * out of the RAM cache, so a block that is in neither when looked for in this order was really not cached. (The
   * other order misses a block whose writer publishes and removes between the two looks.)
   */
  private ByteBuf lookup(BlockKey key) {
    PendingWrite waiting = parts.ramCache.get(key);
    if (waiting != null) {
      return waiting.block().newView();
    }
    long entry = parts.index.get(key);
    return entry == IndexEntry.ABSENT ? null : reader.read(key, entry);
  }

  @Override
  public boolean evictBlock(BlockKey key) {
    PendingWrite waiting = parts.ramCache.remove(key);
    if (waiting != null) {
      waiting.withdraw();
    }
    long entry = parts.index.peek(key);
    while (entry != IndexEntry.ABSENT) {
      if (parts.index.remove(key, entry)) {
        parts.removed.removed(entry);
        return true;
      }
      entry = parts.index.peek(key);
    }
    return waiting != null;
  }

  /**
   * Counts each block once. A block whose writer published it but had not yet taken it out of the RAM cache is in
   * both; taken out of the RAM cache here, it counts only when the index removal below finds it (its writer leaves
   * the entry alone once it lost the block from the RAM cache). The index is swept after the RAM cache, so it still
   * holds every block published before its withdrawal.
   */
  @Override
  public int evictBlocksByFile(String file) {
    int waiting = parts.ramCache.removeFile(file, PendingWrite::withdraw);
    return waiting + parts.index.removeFile(file, parts.removed);
  }

  @Override
  public CacheStats stats() {
    return parts.stats.snapshot(capacity(), size(), parts.counters.blockCounts());
  }

  /** Usable capacity: whole buckets of the configured capacity. */
  @Override
  public long capacity() {
    return parts.allocator.capacity();
  }

  /** Stored bytes (headers included) of the blocks in slots. */
  @Override
  public long size() {
    long size = 0;
    for (CachePriority p : CachePriority.values()) {
      size += parts.index.bytes(p);
    }
    return size;
  }

  /**
   * Blocks in slots plus blocks waiting for a writer (which gets already find); a block caught between the two for
   * the instant a writer publishes it may be counted twice.
   */
  @Override
  public long blockCount() {
    return parts.index.size() + parts.ramCache.size();
  }

  /**
   * The blocks in slots, walked lazily: see {@link EntryWalker} (weakly consistent; blocks still waiting for their
   * writer are not listed; on engines that are not memory each step reads a slot).
   */
  public Iterator<CachedEntry> entries() {
    return EntryWalker.of(parts, reader);
  }

  /** The L2's own figures: allocator, index heap, writer queues, failures by reason. */
  public BucketCacheMetrics metrics() {
    return new BucketCacheMetrics(parts.allocator.stats(), parts.index.size(), parts.index.heapBytes(),
        pipeline.queuedCount(), pipeline.queueCapacity(), parts.counters, parts.pins.pinnedSlots(),
        parts.engine.stats(), parts.ioErrors);
  }

  /**
   * Stops the writers (blocks still queued are dropped), empties the index and releases the engine once no reader
   * holds a block. Idempotent.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    // Withdrawn, so that a writer still running (or a drainWriters() racing this close) publishes none of them; a
    // block published before is in the index, cleared below once the writers have stopped.
    parts.ramCache.clear(PendingWrite::withdraw);
    pipeline.close();
    if (persistence != null) {
      persistence.close();
    }
    parts.index.clear(parts.removed);
    reader.close();
  }

  /** The wiring, for tests in this package. */
  BucketCacheParts parts() {
    return parts;
  }

  /** Warm restart state for tests in this package, or null. */
  BucketPersistence persistence() {
    return persistence;
  }

  /** Whether the engine's memory has been released (closed and no view outstanding). */
  boolean engineReleased() {
    return reader.engineReleased();
  }
}
