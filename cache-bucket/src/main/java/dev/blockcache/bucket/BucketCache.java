package dev.blockcache.bucket;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CachePriority;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.CacheStats;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.alloc.SlotPins;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.config.EngineGeometry;
import dev.blockcache.bucket.engine.ChannelIo;
import dev.blockcache.bucket.engine.FileEngineOptions;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.engine.IoEngineRegistry;
import dev.blockcache.bucket.engine.PageCache;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.policy.Admission;
import dev.blockcache.bucket.policy.SpaceReclaimer;
import dev.blockcache.bucket.read.BlockLookup;
import dev.blockcache.bucket.read.EntryWalker;
import dev.blockcache.bucket.read.ReadBufferPool;
import dev.blockcache.bucket.read.SlotEntries;
import dev.blockcache.bucket.read.SlotReadPolicy;
import dev.blockcache.bucket.read.SlotReader;
import dev.blockcache.bucket.slot.CachedEntry;
import dev.blockcache.bucket.slot.Residency;
import dev.blockcache.bucket.slot.ResidencyListener;
import dev.blockcache.bucket.slot.SlotGuard;
import dev.blockcache.bucket.slot.SlotRelease;
import dev.blockcache.bucket.stats.BucketCacheMetrics;
import dev.blockcache.bucket.stats.BucketCounters;
import dev.blockcache.bucket.stats.IoErrorTolerance;
import dev.blockcache.bucket.stats.RateLimitedLog;
import dev.blockcache.bucket.stats.SlotFaults;
import dev.blockcache.bucket.write.BlockInserter;
import dev.blockcache.bucket.write.CopyPath;
import dev.blockcache.bucket.write.InlineWriter;
import dev.blockcache.bucket.write.PendingWrite;
import dev.blockcache.bucket.write.QueueWait;
import dev.blockcache.bucket.write.RamCache;
import dev.blockcache.bucket.write.SlotWriter;
import dev.blockcache.bucket.write.WriterPipeline;
import dev.blockcache.config.ConfigException;
import dev.blockcache.stats.StatsRecorder;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.LoggerFactory;

/**
 * The L2 cache: blocks in slots of an {@link IoEngine}, found through a compact
 * {@link dev.blockcache.bucket.index.BlockIndex}, written by a bounded {@link WriterPipeline}, read as zero-copy views
 * on memory engines. The life of an entry and the parts this class wires are described in the package documentation.
 *
 * <h2>Ownership</h2>
 * As for every {@link BlockCache}: {@link #cacheBlock} copies and the caller keeps its buffer; {@link #handOver}
 * takes the caller's reference whatever it returns and keeps the buffer itself until the block is in its slot;
 * {@link #getBlock} returns a block of which the caller owns one reference and must release it.
 *
 * <p>With {@code hbase.bucketcache.writer.inline=true} (memory engines only) both inserts wait for no writer: they
 * write on the caller's thread, evicting if needed, with no RAM cache and no queue; see {@link InlineWriter}.
 *
 * <h2>Lifecycle</h2>
 * A cache from the {@code create} factories is started: its persisted index restored (if configured), its checkpoint
 * and writer threads running. {@link #close()} is the only stop.
 *
 * <p>Thread-safety: safe for concurrent use by any number of threads.
 */
public final class BucketCache implements BlockCache {
  private static final AtomicInteger INSTANCES = new AtomicInteger();
  /** Milliseconds between two IO warnings: one line per 10 s is enough to notice and cannot flood a log. */
  static final long WARN_INTERVAL_MS = 10_000;

  private final BucketAllocator allocator;
  private final SlotPins pins;
  private final SlotGuard slots;
  private final BlockIndex index;
  private final RamCache ramCache = new RamCache();
  private final StatsRecorder stats = new StatsRecorder();
  private final BucketCounters counters = new BucketCounters();
  private final SlotRelease release;
  private final Residency residency = new Residency();
  private final IoErrorTolerance ioErrors;
  private final WriterPipeline pipeline;
  private final SlotReader reader;
  private final BlockLookup lookup;
  private final CopyPath copies;
  /** {@code cacheBlock} and {@code handOver}: refusal, admission, copy path, queueing. */
  private final BlockInserter inserter;
  /** {@code evictBlock} and its by-file forms. */
  private final BlockRemoval removal;
  /** Warm restart (checkpoint and restore), or null without {@code hbase.bucketcache.persistent.path}. */
  private final BucketPersistence persistence;
  private final int instance = INSTANCES.incrementAndGet();
  private volatile boolean closed;

  /**
   * A started cache on a new engine made from {@code config.ioEngine()} by the built-in registry, file engines opened
   * with the config's O_DIRECT setting.
   */
  public static BucketCache create(BucketCacheConfig config) throws IOException {
    FileEngineOptions files = new FileEngineOptions(PageCache.directIo(config.fileDirectIo()), ChannelIo.PLAIN);
    return create(config, IoEngineRegistry.withBuiltins(files));
  }

  /**
   * A started cache on a new engine made from {@code config.ioEngine()} by {@code registry}; the cache owns the
   * engine. A config the cache refuses for the engine (inline writes on an engine that is not memory) is refused
   * before the engine is made, so no file is created for it. A cache file whose header was damaged is refused by the
   * engine unless the cache's own checkpoint proves it this cache's; then the cache starts cold over it
   * ({@link DamagedCacheFiles}).
   */
  public static BucketCache create(BucketCacheConfig config, IoEngineRegistry registry) throws IOException {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(registry, "registry");
    return create(config, EngineOpening.open(config, registry));
  }

  /**
   * A started cache over {@code engine}, which it owns and closes (also when this factory throws).
   *
   * @throws ConfigException naming {@value BucketCacheKeys#WRITER_INLINE} when inline writes are asked for on an
   *     engine that is not memory
   */
  public static BucketCache create(BucketCacheConfig config, IoEngine engine) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(engine, "engine");
    BucketCache cache = new BucketCache(config, engine, System::currentTimeMillis, CopyPath.of(config, engine));
    cache.start();
    return cache;
  }

  /**
   * A cache over {@code engine} (which it owns), not started ({@link #awaitWritten} writes queued blocks on the
   * calling thread until {@link #start()}), for tests that step the write path by hand: {@code cacheBlock} queues
   * every block unless the config asks for inline writes; the IO-error window's clock (ms) is injected.
   */
  BucketCache(BucketCacheConfig config, IoEngine engine, LongSupplier clockMs) {
    this(config, engine, clockMs, config.writerInline() ? CopyPath.SLOT : CopyPath.QUEUED);
  }

  private BucketCache(BucketCacheConfig config, IoEngine engine, LongSupplier clockMs, CopyPath copies) {
    if (config.writerInline() && !engine.isMemory()) {
      engine.close();
      throw EngineOpening.inlineNeedsMemory(config);
    }
    if (engine.segmentSize() % config.bucketCapacity() != 0) {
      engine.close();
      throw new IllegalArgumentException("engine segment size " + engine.segmentSize()
          + " is not a multiple of the bucket capacity " + config.bucketCapacity());
    }
    this.allocator = new BucketAllocator(Math.min(config.capacity(), engine.capacity()), config.bucketSizes(),
        config.bucketCapacity());
    this.pins = new SlotPins(allocator::free);
    this.slots = new SlotGuard(engine, pins);
    this.index = new BlockIndex(EngineGeometry.expectedIndexEntries(engine.capacity()),
        SpaceReclaimer.sketchFor(config, EngineGeometry.expectedIndexEntries(engine.capacity())));
    this.release = new SlotRelease(stats, counters, slots, residency);
    SpaceReclaimer reclaimer = new SpaceReclaimer(config, allocator, index, release.evicted, stats);
    Admission admission = new Admission(config, allocator.maxItemSize(), reclaimer, slots, counters, clockMs);
    this.ioErrors = new IoErrorTolerance(config.ioErrorsToleratedMs(), clockMs);
    SlotFaults faults = new SlotFaults(engine.spec(), counters, ioErrors,
        new RateLimitedLog(LoggerFactory.getLogger(BucketCache.class), WARN_INTERVAL_MS, clockMs));
    this.pipeline = new WriterPipeline(config.writerThreads(), config.writerQueueLength(),
        config.queueAdditionWaitTimeMs(),
        new SlotWriter(slots, reclaimer, index, ramCache, counters, faults, this::fail, residency));
    this.reader = new SlotReader(slots, index, new ReadBufferPool(allocator), faults, release.removed,
        SlotReadPolicy.of(config, engine));
    this.lookup = new BlockLookup(ramCache, index, reader);
    this.copies = copies;
    InlineWriter inline = copies == CopyPath.QUEUED ? null
        : new InlineWriter(slots, reclaimer, allocator, index, counters, faults, residency);
    this.inserter = new BlockInserter(() -> closed, ioErrors, largestStored(allocator), index, admission, copies,
        inline, ramCache, pipeline, this::fail);
    this.removal = new BlockRemoval(ramCache, index, release, reader);
    this.persistence = BucketPersistence.create(config, engine, allocator, index, counters, clockMs);
  }

  /**
   * Restores the persisted index (if configured), then starts the checkpoint and writer threads. Once, before the
   * cache is handed out: the {@code create} factories call it.
   */
  void start() {
    if (persistence != null) {
      persistence.start("bucketcache-" + instance + "-checkpoint");
    }
    if (copies == CopyPath.SLOT) {
      return; // blocks are written by cacheBlock's caller: no writer thread to start
    }
    pipeline.start(WriterPipeline.daemonThreads("bucketcache-" + instance + "-writer-"));
  }

  /**
   * Waits until every block this cache accepted before the call is in its slot, or was dropped and counted (no room,
   * IO error, evicted while it waited), or until {@code timeout} passed. Blocks accepted during the wait are not
   * waited for. For tests and benchmarks: gets find waiting blocks too. Returns at once for inline writes and after
   * {@link #close()}.
   *
   * @return true if every such block was written or dropped within {@code timeout}
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  public boolean awaitWritten(Duration timeout) throws InterruptedException {
    Objects.requireNonNull(timeout, "timeout");
    if (copies == CopyPath.SLOT || closed) {
      return true;
    }
    return pipeline.awaitWritten(timeout);
  }

  /**
   * {@inheritDoc} On a memory engine the block is copied straight into a slot that is free without evicting (or into
   * any slot, evicting, with {@code hbase.bucketcache.writer.inline}); otherwise a copy waits on the heap for its
   * writer.
   */
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
    return inserter.cacheBlock(key, block, options, wait);
  }

  /**
   * {@inheritDoc} On a memory engine with a slot free without evicting, the block is copied into that slot and the
   * buffer released before the call returns (the copy a writer would make, without the hand-off). Otherwise the
   * buffer itself waits in the RAM cache for its writer (no copy on the caller's thread), gets read views of it
   * meanwhile, and the cache releases it once the block is in its slot and no such view is left (or at once on a
   * refusal). With {@code hbase.bucketcache.writer.inline} the block is always copied into its slot and the buffer
   * released before the call returns.
   */
  @Override
  public CacheResult handOver(BlockKey key, ByteBuf block, CacheOptions options) {
    return handOver(key, block, options, QueueWait.CONFIGURED);
  }

  /**
   * As {@link #handOver(BlockKey, ByteBuf, CacheOptions)}, with {@code wait} as for
   * {@link #cacheBlock(BlockKey, ByteBuf, CacheOptions, QueueWait)}. Whatever the result (and also when an argument
   * is null), the cache owns {@code block}'s reference from the call on and releases it.
   */
  public CacheResult handOver(BlockKey key, ByteBuf block, CacheOptions options, QueueWait wait) {
    return inserter.handOver(key, block, options, wait);
  }

  private void fail(CacheResult reason) {
    counters.failed(reason);
    stats.failedInsertion();
  }

  /** Whether a block of {@code blockLength} bytes under {@code key} would get a slot now, evicting nothing. */
  public boolean hasRoomFor(BlockKey key, int blockLength) {
    long stored = (long) BlockHeader.headerLength(key) + Math.max(1, blockLength);
    return stored <= largestStored(allocator) && allocator.hasRoomFor((int) stored);
  }

  /**
   * The most bytes (header and block) one slot stores: the largest item, and at most what an index entry records
   * ({@link IndexEntry#MAX_LENGTH}, 8 MiB - 1); a larger block is refused as {@link CacheResult#TOO_LARGE}.
   */
  private static int largestStored(BucketAllocator allocator) {
    return Math.min(allocator.maxItemSize(), IndexEntry.MAX_LENGTH);
  }

  /**
   * {@inheritDoc} The way through the L2 and why it takes the key's parts: see {@link BlockLookup}. This method only
   * takes the key apart and calls the lookup: where the JIT inlines this method into the caller and compiles the
   * lookup out of line, a key built per lookup is still scalar-replaced.
   */
  @Override
  public ByteBuf getBlock(BlockKey key, ReadOptions options) {
    Objects.requireNonNull(key, "key");
    return getBlock(key.file(), key.offset(), key.fileHash(), key.hash64(), options);
  }

  /** {@inheritDoc} Allocates only what {@link #getBlock(BlockKey, ReadOptions)} hands out, and takes no key. */
  @Override
  public ByteBuf getBlock(BlockFile file, long offset, ReadOptions options) {
    Objects.requireNonNull(file, "file");
    return getBlock(file.name(), offset, file.fileHash(), file.blockHash64(offset), options);
  }

  /** {@link #getBlock(BlockKey, ReadOptions)} of the key made of its parts. */
  private ByteBuf getBlock(String file, long offset, long fileHash, long hash64, ReadOptions options) {
    Objects.requireNonNull(options, "options");
    ByteBuf block = closed || ioErrors.disabled() ? null : lookup.find(file, offset, fileHash, hash64);
    stats.lookup(options, block);
    return block;
  }

  /**
   * {@inheritDoc} Allocates nothing for a block in the RAM cache or in a zero-copy memory engine's slot (pinned for
   * the reader's call); other engines read the block as {@link #getBlock} does and lend it.
   */
  @Override
  public boolean read(BlockKey key, ReadOptions options, BlockReader reader) {
    Objects.requireNonNull(key, "key");
    return read(key.file(), key.offset(), key.fileHash(), key.hash64(), options, reader);
  }

  /** {@inheritDoc} Allocates as {@link #read(BlockKey, ReadOptions, BlockReader)} does, without a key. */
  @Override
  public boolean read(BlockFile file, long offset, ReadOptions options, BlockReader reader) {
    Objects.requireNonNull(file, "file");
    return read(file.name(), offset, file.fileHash(), file.blockHash64(offset), options, reader);
  }

  /** {@link #read(BlockKey, ReadOptions, BlockReader)} of the key made of its parts. */
  private boolean read(String file, long offset, long fileHash, long hash64, ReadOptions options,
      BlockReader reader) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(reader, "reader");
    boolean hit = !closed && !ioErrors.disabled() && lookup.lend(file, offset, fileHash, hash64, reader);
    if (hit) {
      stats.hit(options);
    } else {
      stats.miss(options);
    }
    return hit;
  }

  @Override
  public boolean evictBlock(BlockKey key) {
    return removal.evictBlock(key);
  }

  /** {@inheritDoc} Counts each block once, whether it was waiting for its writer, in a slot, or caught between. */
  @Override
  public int evictBlocksByFile(String file) {
    return removal.evictBlocksByFile(file);
  }

  /**
   * Removes {@code file}'s blocks at offsets in [{@code from}, {@code to}) (one half of a file that a split divided),
   * leaving its other blocks. Cost: the waiting blocks, plus the slots of the file's index group, each of whose
   * entries with the file's tag has its key read back from its slot (a device read on engines that are not memory).
   *
   * @return the number of blocks removed
   */
  public int evictBlocksOfFile(String file, long from, long to) {
    return removal.evictBlocksOfFile(file, from, to);
  }

  /** Whether gets and inserts are served: false once closed, or while IO errors have disabled the cache. */
  public boolean isEnabled() {
    return !closed && !ioErrors.disabled();
  }

  @Override
  public CacheStats stats() {
    return stats.snapshot(capacity(), size(), counters.blockCounts());
  }

  /** Usable capacity: whole buckets of the configured capacity. */
  @Override
  public long capacity() {
    return allocator.capacity();
  }

  /** Stored bytes (headers included) of the blocks in slots. */
  @Override
  public long size() {
    long size = 0;
    for (CachePriority p : CachePriority.values()) {
      size += index.bytes(p);
    }
    return size;
  }

  /**
   * Blocks in slots plus blocks waiting for a writer (which gets already find); a block caught between the two for
   * the instant a writer publishes it may be counted twice.
   */
  @Override
  public long blockCount() {
    return index.size() + ramCache.size();
  }

  /**
   * The blocks in slots, walked lazily: see {@link EntryWalker} (weakly consistent; blocks still waiting for their
   * writer are not listed; on engines that are not memory each step reads a slot).
   */
  public Iterator<CachedEntry> entries() {
    return EntryWalker.of(index, reader);
  }

  /**
   * Makes {@code listener} hear of every block that takes a slot from now on and of every block that leaves one (see
   * {@link ResidencyListener} for the order and what it must not do). The blocks already in slots (restored from a
   * checkpoint) are announced first, through {@link ResidencyListener#stored}, their keys read back from their slot
   * headers: one read per block on engines that are not memory. Once per cache, before it is used (nothing may
   * insert or evict meanwhile).
   *
   * @return the number of blocks already in slots that were announced
   * @throws IllegalStateException if a listener was set already
   */
  public int listenToResidency(ResidencyListener listener) {
    residency.set(listener);
    return SlotEntries.resolve(index::forEach, reader, (block, entry) -> listener.stored(block.key(), entry));
  }

  /**
   * Bytes of the slot that holds a block of {@code storedLength} bytes (header included): the item size of the
   * smallest size class that fits it, where the allocator puts it. Slots of that size sit at multiples of it from the
   * start of their bucket ({@link #bucketCapacity()} bytes); 0 if no class fits.
   */
  public int slotSize(int storedLength) {
    int c = allocator.sizeClassOf(storedLength);
    return c < 0 ? 0 : allocator.itemSize(c);
  }

  /** Bytes of one bucket: slot offsets divided by it give the bucket, and buckets start at its multiples. */
  public int bucketCapacity() {
    return allocator.bucketCapacity();
  }

  /** The L2's own figures: allocator, index heap, writer queues, failures by reason. */
  public BucketCacheMetrics metrics() {
    return new BucketCacheMetrics(allocator.stats(), index.size(), index.heapBytes(),
        pipeline.queuedCount(), pipeline.queueCapacity(), counters, slots.pinnedSlots(),
        slots.engine().stats(), ioErrors);
  }

  /**
   * Stops the writers (blocks still queued are dropped, handed-over buffers released), writes the final checkpoint
   * (if persistent), empties the index and releases the engine once no reader holds a block. Idempotent.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    // Withdrawn, so that a writer still running (or an awaitWritten() racing this close) publishes none of them; a
    // block published before is in the index, cleared below once the writers have stopped.
    ramCache.clear(PendingWrite::withdraw);
    pipeline.close();
    if (persistence != null) {
      persistence.close();
    }
    index.clear(release.removed);
    reader.close();
    slots.close();
  }

  /** The index, for tests in this package. */
  BlockIndex index() {
    return index;
  }

  /** The allocator, for tests in this package. */
  BucketAllocator allocator() {
    return allocator;
  }

  /** The pin table, for tests in this package. */
  SlotPins pins() {
    return pins;
  }

  /** The engine, for tests in this package. */
  IoEngine engine() {
    return slots.engine();
  }

  /** The blocks waiting for a writer, for tests in this package. */
  RamCache ramCache() {
    return ramCache;
  }

  /** Warm restart state for tests in this package, or null. */
  BucketPersistence persistence() {
    return persistence;
  }

  /** Whether the engine's memory has been released (closed and no view outstanding). */
  boolean engineReleased() {
    return slots.engineReleased();
  }
}
