package dev.blockcache.hbase;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockType;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.write.QueueWait;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.CacheStats;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileInfo;
import org.apache.hadoop.hbase.util.Pair;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Our L2 ({@link BucketCache}, any engine) behind HBase 2.6's own {@link BlockCache} interface: what
 * {@link BlockCacheRegionServer} places beside HBase's L1 in HBase's non-inclusive {@code CombinedBlockCache}
 * ({@link ExclusivePlacement}), what a RegionServer loads with {@code hbase.blockcache.use.external=true} and
 * {@code hbase.blockcache.external.class} naming this class (HBase then wraps it with its L1 in an
 * {@code InclusiveCombinedBlockCache}), or what an embedding program hands to {@code HRegion.setBlockCache},
 * {@code new CacheConfig(conf, cache)} or HBase's {@code CombinedBlockCache}. HBase 2.6's bookkeeping (bytes per
 * region, fully cached files) is kept on insert and eviction by {@link CachedFiles}; a get does not touch it.
 *
 * <h2>Who releases what</h2>
 * <ul>
 *   <li>{@link #cacheBlock}: the caller keeps its reference to its {@link Cacheable}. An HFile block in one buffer
 *       is retained once and handed over to the L2 as it is ({@link HandedOverBlock}, {@link BucketCache#handOver}):
 *       the L2 releases the hand-over once the block is in its slot, or at once if it refuses the block, and that
 *       release releases the retained reference. Any other block is only read: it is serialized into a new pooled
 *       buffer that nobody writes to afterwards, handed over the same way.</li>
 *   <li>{@link #getBlock}: on a direct view (offheap, mmap, file engines) the returned block's {@code ByteBuff}
 *       holds the one reference the L2 handed out; HBase's release of the block's last reference runs the
 *       {@code ByteBuff}'s recycler, which releases our view and unpins its slot. The block is a shared-memory block
 *       ({@code isSharedMem()}), so HBase's L1 deep-copies it instead of keeping it. On a heap view (a block still
 *       waiting for its writer, the heap engine, {@code hbase.bucketcache.read.copy}) the bytes are copied onto the
 *       heap and our view is released before the method returns: HBase treats array-backed blocks as
 *       garbage-collected and never releases them, so no reference of ours may hide behind one.</li>
 *   <li>{@link #shutdown} closes the L2; blocks HBase still holds stay valid until HBase releases them.</li>
 * </ul>
 *
 * <p>HBase lines: {@link BlockCache} gains default methods between patch releases. A method that only some of the
 * lines we build for declare (docs/hbase.md, "HBase lines tested") carries no {@code @Override}, so this class
 * compiles against each line; a line that lacks it never calls it.
 *
 * <p>Lifecycle: the {@code (Configuration)} constructor builds and starts the L2 (writer threads, and the checkpoint
 * thread when persistent); {@link #shutdown} stops it. Thread-safety: safe for concurrent use by any number of
 * threads, as HBase requires of a block cache.
 */
// Methods that only some HBase lines declare (2.6.0 and later) carry no @Override, so one source builds on every line
// in docs/hbase.md; the lines without them never call them.
@SuppressWarnings("MissingOverride")
public final class HBaseL2Cache implements BlockCache {
  private static final Logger LOG = LoggerFactory.getLogger(HBaseL2Cache.class);
  /** Longest wait of a prefetch thread for the L2's writers before it checks a file: long enough for a full queue. */
  static final Duration FULLY_CACHED_WAIT = Duration.ofSeconds(10);

  private final BucketCache l2;
  private final L2CacheStats stats;
  private final BlockReader reader;
  /** Bytes per file and region, fully cached files: kept on insert and eviction, never on a get. */
  private final CachedFiles files;
  /** The operator's {@code hbase.bucketcache.*} values at construction, to tell a live change apart. */
  private final Map<String, String> configured;

  /**
   * The constructor HBase's {@code BlockCacheFactory} calls: reads the {@code hbase.bucketcache.*} keys of
   * {@code conf} (see {@link L2SiteConfig}), builds the L2 on the configured engine and starts it.
   *
   * @throws dev.blockcache.config.ConfigException naming the first key whose value cannot be used
   * @throws IOException when the engine's files cannot be opened
   */
  public HBaseL2Cache(Configuration conf) throws IOException {
    this(BucketCache.create(L2SiteConfig.read(conf)), L2SiteConfig.operatorValues(conf));
  }

  /** An adapter over {@code l2} (started, as its factories return it), which it now owns: {@link #shutdown} closes it. */
  public HBaseL2Cache(BucketCache l2) {
    this(l2, Map.of());
  }

  private HBaseL2Cache(BucketCache l2, Map<String, String> configured) {
    this.l2 = Objects.requireNonNull(l2, "l2");
    this.stats = new L2CacheStats(l2::stats);
    this.reader = new BlockReader(l2);
    this.files = CachedFiles.listenTo(l2);
    this.configured = Map.copyOf(configured);
  }

  /** The L2 behind this adapter, for its own metrics ({@link BucketCache#metrics()}). */
  public BucketCache l2() {
    return l2;
  }

  @Override
  public void cacheBlock(BlockCacheKey cacheKey, Cacheable buf) {
    cacheBlock(cacheKey, buf, false, false);
  }

  @Override
  public void cacheBlock(BlockCacheKey cacheKey, Cacheable buf, boolean inMemory) {
    cacheBlock(cacheKey, buf, inMemory, false);
  }

  /**
   * Caches {@code buf} with MEMORY priority when {@code inMemory}. With {@code waitWhenCache} a full writer queue is
   * waited on for {@code hbase.bucketcache.queue.addition.waittime}; without, it fails the insertion at once (HBase's
   * readers pass false). An HFile block in one buffer is handed to the L2 without a copy ({@link HandedOverBlock}: the
   * L2 holds a reference to it until its writer has copied it into a slot); any other block is serialized into a copy
   * first. The caller keeps its reference to {@code buf}.
   */
  @Override
  public void cacheBlock(BlockCacheKey cacheKey, Cacheable buf, boolean inMemory, boolean waitWhenCache) {
    // Key and options first: a key our L2 refuses throws before any buffer or retained block exists to leak.
    BlockKey key = HBaseKeys.key(cacheKey);
    BlockType type = HBaseKeys.type(cacheKey.getBlockType());
    CacheOptions options = inMemory ? CacheOptions.inMemory(type.category()) : CacheOptions.of(type);
    files.learnRegion(cacheKey.getFilePath());
    ByteBuf handedOver = HandedOverBlock.of(buf);
    ByteBuf serialized = handedOver != null ? handedOver : SerializedBlock.serialize(buf);
    if (serialized == null) {
      return;
    }
    l2.handOver(key, serialized, options, waitWhenCache ? QueueWait.CONFIGURED : QueueWait.NONE);
  }

  /**
   * The cached block, or null. HBase's arguments: {@code caching} whether the reader would cache the block on a
   * miss; {@code repeat} whether this lookup repeats one whose miss was already counted (its miss is not counted
   * again); {@code updateCacheMetrics} whether any counter moves. The caller owns the returned block's reference and
   * releases it (see the class notes).
   */
  @Override
  public Cacheable getBlock(BlockCacheKey cacheKey, boolean caching, boolean repeat, boolean updateCacheMetrics) {
    BlockType type = HBaseKeys.type(cacheKey.getBlockType());
    ReadOptions options = ReadOptions.of(type);
    if (!caching) {
      options = options.notCaching();
    }
    if (repeat) {
      options = options.repeat();
    }
    if (!updateCacheMetrics) {
      options = options.withoutStats();
    }
    Cacheable block = reader.read(HBaseKeys.key(cacheKey), options);
    if (updateCacheMetrics) {
      if (block != null) {
        stats.hit(caching, cacheKey.isPrimary(), cacheKey.getBlockType());
      } else if (!repeat) {
        stats.miss(caching, cacheKey.isPrimary(), cacheKey.getBlockType());
      }
    }
    return block;
  }

  /** Removes the block; a block HBase still holds stays valid until HBase releases it. */
  @Override
  public boolean evictBlock(BlockCacheKey cacheKey) {
    return l2.evictBlock(HBaseKeys.key(cacheKey));
  }

  /** Removes every block of the HFile (closed with evict-on-close, or compacted away), at a cost per block of it. */
  @Override
  public int evictBlocksByHfileName(String hfileName) {
    int evicted = l2.evictBlocksByFile(hfileName);
    files.forget(hfileName);
    return evicted;
  }

  /**
   * Removes the HFile's blocks at offsets from {@code initOffset} to {@code endOffset}, both included (HBase evicts one
   * half of a split file this way), leaving the others. Cost: the blocks of the file's index group, whose keys are read
   * back from their slots.
   */
  public int evictBlocksRangeByHfileName(String hfileName, long initOffset, long endOffset) {
    long to = endOffset == Long.MAX_VALUE ? Long.MAX_VALUE : endOffset + 1;
    return l2.evictBlocksOfFile(hfileName, initOffset, to);
  }

  /**
   * Stored bytes (our block header included) per region, by the region's encoded name: exactly what the L2 holds of
   * each region's files, kept as blocks come and go. HBase's RegionServer reports it (in MB) in its load, where the
   * cache-aware balancer reads it. Blocks restored from a checkpoint count once their region is known (when the
   * RegionServer opens it, {@link #learnRegionsOf}).
   */
  public Optional<Map<String, Long>> getRegionCachedInfo() {
    return Optional.of(files.regionBytes());
  }

  /** The files prefetch reported fully cached while all their data blocks are in the L2: name to (region, size). */
  public Optional<Map<String, Pair<String, Long>>> getFullyCachedFiles() {
    return Optional.of(files.fullyCached());
  }

  /**
   * HBase's prefetch read the whole file: it is recorded as fully cached if the L2 holds {@code dataBlockCount} of its
   * data blocks once the blocks accepted so far are written (waited for at most {@link #FULLY_CACHED_WAIT}, on the
   * prefetch thread). A fully cached file is not prefetched again ({@link #shouldCacheFile}); evicting any of its
   * blocks takes it off the list.
   */
  public void notifyFileCachingCompleted(Path fileName, int totalBlockCount, int dataBlockCount, long size) {
    try {
      l2.awaitWritten(FULLY_CACHED_WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    boolean fully = files.fullyCachedIfHeld(fileName, dataBlockCount, size);
    LOG.debug("{}: prefetch done, {} data blocks, fully cached: {}", fileName, dataBlockCount, fully);
  }

  /** False for a file that is fully cached (HBase then neither prefetches it nor caches its data blocks again). */
  public Optional<Boolean> shouldCacheFile(HFileInfo hFileInfo, Configuration conf) {
    String name = hFileInfo.getHFileContext().getHFileName();
    return Optional.of(name == null || !files.isFullyCached(name));
  }

  /**
   * Whether the L2 serves gets and inserts: false once shut down, or while IO errors have disabled it. HBase 2.6.5
   * added this to its interface; on older lines it is a plain method.
   */
  public boolean isCacheEnabled() {
    return l2.isEnabled();
  }

  /**
   * Waits until the L2 is initialized; ours restores its checkpoint (when persistent) before its constructor returns,
   * so there is never anything to wait for. Returns {@link #isCacheEnabled()}. HBase 2.6.5 added this to its
   * interface (HFile opens call it); on older lines it is a plain method.
   */
  public boolean waitForCacheInitialization(long timeout) {
    return isCacheEnabled();
  }

  /**
   * Evicts the blocks of the files of region {@code encodedRegionName} (as {@link #getRegionCachedInfo} attributes
   * them), except files named in {@code filesInUse} (files regions still online read, such as a split parent's files
   * that its daughters reference).
   *
   * @return the number of blocks evicted
   */
  public int evictBlocksOfRegion(String encodedRegionName, Set<String> filesInUse) {
    int evicted = 0;
    for (String file : files.filesOf(encodedRegionName)) {
      if (!filesInUse.contains(file)) {
        evicted += evictBlocksByHfileName(file);
      }
    }
    return evicted;
  }

  /**
   * Learns the region of each HFile at {@code paths} ({@code <table>/<region>/<family>/<file>}), so that blocks of
   * those files counted without a region (restored from a checkpoint) are reported under it. The RegionServer calls
   * this when it opens a region.
   */
  public void learnRegionsOf(Iterable<Path> paths) {
    for (Path path : paths) {
      files.learnRegion(path);
    }
  }

  /** Stored bytes of {@code hfileName}'s blocks in the L2, 0 if none. */
  public long cachedBytesOfFile(String hfileName) {
    return files.fileBytes(hfileName);
  }

  @Override
  public CacheStats getStats() {
    return stats;
  }

  /** Stops the L2's threads and drops its blocks; blocks HBase still holds stay valid until released. */
  @Override
  public void shutdown() {
    l2.close();
  }

  /** Bytes of the cached blocks (headers included), as HBase's BucketCache reports its real cache size. */
  @Override
  public long size() {
    return l2.size();
  }

  @Override
  public long getMaxSize() {
    return l2.capacity();
  }

  @Override
  public long getFreeSize() {
    return l2.freeSize();
  }

  @Override
  public long getCurrentSize() {
    return l2.size();
  }

  /** As HBase's BucketCache: the L2 holds data blocks when it is the L2 of a combined cache, so all its bytes. */
  @Override
  public long getCurrentDataSize() {
    return l2.size();
  }

  @Override
  public long getBlockCount() {
    return l2.blockCount();
  }

  @Override
  public long getDataBlockCount() {
    return l2.stats().blockCount(BlockCategory.DATA);
  }

  /** The cached blocks, read from the L2's index and block headers; see {@link CachedBlocks}. */
  @Override
  public Iterator<CachedBlock> iterator() {
    return CachedBlocks.of(l2);
  }

  /**
   * Whether {@code cacheKey}'s block is in the L2, without counting a hit or miss (HBase's prefetch asks, to skip
   * blocks a persistent cache restored). On a {@code file:} engine this reads the block.
   */
  public Optional<Boolean> isAlreadyCached(BlockCacheKey cacheKey) {
    return Optional.of(l2.read(HBaseKeys.key(cacheKey), probeOptions(cacheKey), block -> { }));
  }

  /**
   * The on-disk size with header of {@code cacheKey}'s HFile block when it is in the L2, read from the stored block's
   * header (HBase's prefetch skips that many bytes of the file); empty on a miss or a block that is not an HFile
   * block. Counts no hit or miss; on a {@code file:} engine this reads the block.
   */
  public Optional<Integer> getBlockSize(BlockCacheKey cacheKey) {
    int[] size = {0};
    boolean found = l2.read(HBaseKeys.key(cacheKey), probeOptions(cacheKey),
        block -> size[0] = SerializedBlock.onDiskSizeWithHeader(block));
    return found && size[0] > 0 ? Optional.of(size[0]) : Optional.empty();
  }

  /**
   * Whether {@code block}, serialized as {@link #cacheBlock} stores it, would get a slot of our L2 now without evicting
   * anything (HBase's prefetch stops when this is false, so that prefetching never evicts cached blocks). HBase's own
   * BucketCache answers from byte counts (used bytes plus the block's size below the accept factor), which a free
   * byte count in the wrong size class satisfies; ours asks the allocator for a free item of the block's size class
   * or a free bucket. False for a block larger than the largest item size. Empty when the block names no file.
   */
  public Optional<Boolean> blockFitsIntoTheCache(HFileBlock block) {
    String file = block.getHFileContext().getHFileName();
    if (file == null) {
      return Optional.empty();
    }
    int length = SerializedBlock.PREFIX_LENGTH + block.getSerializedLength();
    // The room a block needs depends on its file's name, not its offset (which HBase 2.6.0 keeps package-private).
    return Optional.of(l2.hasRoomFor(BlockKey.of(file, 0), length));
  }

  private static ReadOptions probeOptions(BlockCacheKey cacheKey) {
    return ReadOptions.of(HBaseKeys.type(cacheKey.getBlockType())).notCaching().withoutStats();
  }

  /** No sub-caches: HBase's convention for a single tier. */
  @Override
  public BlockCache[] getBlockCaches() {
    return null;
  }

  /**
   * Our L2's configuration is immutable once built: a changed {@code hbase.bucketcache.*} key is reported by name
   * (one WARN line) and applies at the next restart. HBase's own BucketCache applies its factor keys live.
   */
  public void onConfigurationChange(Configuration conf) {
    Map<String, String> now = L2SiteConfig.operatorValues(conf);
    StringBuilder changed = new StringBuilder();
    for (String key : unionOfKeys(now)) {
      if (!Objects.equals(configured.get(key), now.get(key))) {
        changed.append(changed.length() == 0 ? "" : ", ").append(key).append('=').append(now.get(key));
      }
    }
    if (changed.length() > 0) {
      LOG.warn("{} not applied: the L2's configuration is fixed at start; restart the RegionServer to apply it",
          changed);
    }
  }

  private Set<String> unionOfKeys(Map<String, String> now) {
    Set<String> keys = new TreeSet<>(configured.keySet());
    keys.addAll(now.keySet());
    return keys;
  }

  @Override
  public String toString() {
    return "HBaseL2Cache{" + l2.stats() + "}";
  }
}
