package dev.blockcache.site;

import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import java.util.List;
import java.util.Map;

/**
 * Every configuration key this library reads, with its default and meaning: the one list that
 * {@link SiteConfigReader} checks files against and that {@code docs/configuration.md} is tested against. Also the
 * HBase keys that belong to the storage engine rather than the cache, and the HBase cache keys not supported here,
 * each with what the user is told.
 *
 * <p>Thread-safety: immutable.
 */
public final class ConfigKeys {
  private ConfigKeys() {}

  /** One key: its name, its default as text ("unset" when it has none) and what it means. */
  public record Key(String name, String defaultValue, String meaning) {}

  /** The keys read, in the order the documentation lists them. */
  public static final List<Key> ALL = List.of(
      new Key(SiteConfigReader.L1_SIZE, "0.4",
          "L1 size as a fraction of the max heap; <= 0.0001 disables the block cache (no L1, no L2); > 1 is an error;"
              + " with hbase.regionserver.global.memstore.size (default 0.4) at most 0.8 together, as HBase requires"),
      new Key(SiteConfigReader.L1_MEMORY_SIZE, "unset",
          "L1 size in bytes, with an optional k/m/g/t suffix (\"10g\"); overrides the fraction"),
      new Key(SiteConfigReader.L1_POLICY, "LRU", "L1 policy: LRU or TinyLFU (case-insensitive)"),
      new Key(LruConfig.MIN_FACTOR, "0.95", "LRU: an eviction pass frees down to this fraction of capacity"),
      new Key(LruConfig.ACCEPTABLE_FACTOR, "0.99", "LRU: eviction starts above this fraction of capacity"),
      new Key(LruConfig.HARD_CAPACITY_LIMIT_FACTOR, "1.2",
          "LRU: inserts are refused above this factor x acceptable x capacity"),
      new Key(LruConfig.SINGLE_PERCENTAGE, "0.25", "LRU: share of single-access blocks; the three shares sum to 1"),
      new Key(LruConfig.MULTI_PERCENTAGE, "0.50", "LRU: share of multi-access blocks"),
      new Key(LruConfig.MEMORY_PERCENTAGE, "0.25", "LRU: share of in-memory blocks"),
      new Key(LruConfig.IN_MEMORY_FORCE_MODE, "false", "LRU: in-memory blocks may evict every single and multi block"),
      new Key(LruConfig.MAX_BLOCK_SIZE, "16777216", "LRU: larger blocks are not cached (bytes)"),
      new Key(TinyLfuConfig.MAX_BLOCK_SIZE, "16777216", "TinyLFU: larger blocks are not cached (bytes)"),
      new Key(LruConfig.MIN_BLOCK_SIZE, "65536", "expected block size in bytes: presizes the LRU L1's map. In the"
          + " TinyLFU L1 it is Caffeine's first entry bound: capacity / (this + 224, the TinyLFU entry overhead), which"
          + " sizes its frequency sketch; the cache re-derives the bound from the mean block cost when blocks are"
          + " heavier or lighter than this (each change restarts Caffeine's hill climber). Set it to the typical L1"
          + " block size; then the L1 admits and evicts exactly as plain count-bounded Caffeine does"),
      new Key(BucketCacheKeys.IOENGINE, "unset",
          "L2 engine: heap, offheap, file:/path, files:/p1,/p2 or mmap:/path; unset means no L2"),
      new Key(BucketCacheKeys.SIZE, "unset", "L2 capacity in MB (a float) in [1, 8388608] (8 TiB, what the index"
          + " addresses); required with an engine; heap and offheap must fit in the heap / direct memory left"),
      new Key(BucketCacheKeys.BUCKET_SIZES, "5120,9216,...,525312 (14 sizes)",
          "L2 item sizes in bytes, ascending multiples of 256; each bucket holds 4 items of the largest size, or 5"
          + " where that gives every size at least as many items (docs/operations.md, \"Bucket geometry\");"
          + " the largest at least 1280 (a 1 KiB block and its header)"),
      new Key(BucketCacheKeys.WRITER_THREADS, "3", "L2 writer threads"),
      new Key(BucketCacheKeys.WRITER_QUEUE_LENGTH, "64", "capacity of each L2 writer queue"),
      new Key(BucketCacheKeys.QUEUE_ADDITION_WAIT_TIME, "0",
          "ms a cacheBlock waits for room in a full writer queue before it counts a failed insertion"),
      new Key(BucketCacheKeys.ACCEPT_FACTOR, "0.95", "L2, hbase policy only: eviction starts above this fraction of capacity"),
      new Key(BucketCacheKeys.MIN_FACTOR, "0.85", "L2, hbase policy only: eviction frees down to this fraction"),
      new Key(BucketCacheKeys.EXTRA_FREE_FACTOR, "0.10", "L2, hbase policy only: extra fraction freed beyond the minimum"),
      new Key(BucketCacheKeys.SINGLE_FACTOR, "0.25", "L2: share of single-access blocks; the three sum to 1"),
      new Key(BucketCacheKeys.MULTI_FACTOR, "0.50", "L2: share of multi-access blocks"),
      new Key(BucketCacheKeys.MEMORY_FACTOR, "0.25", "L2: share of in-memory blocks"),
      new Key(BucketCacheKeys.PERSISTENT_PATH, "unset",
          "file the L2 index is checkpointed to; enables a verified warm restart (file engines with checksums);"
          + " locked through <path>.lock, so a second cache on the same path is refused"),
      new Key(BucketCacheKeys.PERSIST_INTERVAL, "1000", "ms between L2 index checkpoints (and one at close)"),
      new Key(BucketCacheKeys.IO_ERRORS_TOLERATED_DURATION, "60000",
          "ms of sustained IO errors after which the L2 disables itself (gets miss, puts are dropped)"),
      new Key(BucketCacheKeys.COPY_ON_READ, "false",
          "new: L2 gets return heap copies instead of zero-copy views (the copy path of HBASE-11425)"),
      new Key(BucketCacheKeys.WRITER_INLINE, "false",
          "new: heap/offheap L2 only: cacheBlock writes the block into its slot on the calling thread, evicting there "
              + "if needed (one copy, no writer hand-off; writer threads and queues are then unused); a file engine "
              + "refuses it at start. With `false` a heap/offheap cacheBlock still copies straight into a slot that is "
              + "free without evicting, and queues for the writers (which evict) only when none is; `handOver` always "
              + "queues"),
      new Key(BucketCacheKeys.FILE_DIRECT_IO, "false", "new: file engines open their files with O_DIRECT"),
      new Key(BucketCacheKeys.CHECKSUM_VERIFY, "true",
          "new: verify each block's CRC32C on reads from file engines; a mismatch is a miss and evicts the block"),
      new Key(BucketCacheKeys.EVICTION_POLICY, "tinylfu",
          "new: L2 admission and eviction: tinylfu (a new block enters a full cache through an admission window"
              + " and stays when it leaves it only if used more often than the block it would displace; eviction by"
              + " frequency within the priorities; the cache stays full) or hbase (HBase's BucketCache: admit all,"
              + " free down to minfactor when full)"),
      new Key(BucketCacheKeys.MAX_WRITE_RATE, "0",
          "new: most bytes per second the L2 writes (header and block; k, m, g suffixes), enforced at admission;"
              + " 0 = no bound. Refused blocks are counted as not admitted (over the write budget)"),
      new Key(BucketCacheKeys.ADMISSION_WINDOW, "0.01",
          "new: tinylfu only: smallest share of the cached blocks in the admission window, in [0, 0.9], and the share"
              + " it starts at unless the lookups sampled while the cache filled favour a larger one; a new block enters the window without a frequency test and stays when it leaves only"
              + " if used more often than the block it would displace; 0 = no window: every block is judged on"
              + " arrival"),
      new Key(BucketCacheKeys.ADMISSION_WINDOW_MAX, "0.9",
          "new: tinylfu only: largest share of the cached blocks in the admission window, in [0, 0.9] and at least"
              + " hbase.bucketcache.admission.window.factor; the share is hill-climbed between the two by the hit"
              + " ratio (set both equal to fix it)"));

  /** HBase keys that are the storage engine's caching policy, not the cache's: reported, never applied here. */
  public static final List<String> STORAGE_ENGINE_KEYS = List.of(
      "hbase.rs.cacheblocksonwrite", "hbase.rs.prefetchblocksonopen", "hbase.rs.evictblocksonclose",
      "hfile.block.index.cacheonwrite", "hfile.block.bloom.cacheonwrite", "hbase.block.data.cachecompressed",
      "hbase.block.data.cacheonread", "hbase.rs.cachecompactedblocksonwrite",
      "hbase.rs.cachecompactedblocksonwrite.threshold", "hfile.block.cache.cachedatainl1");

  /** HBase cache keys this library does not implement, with the reason given. */
  public static final Map<String, String> UNSUPPORTED = Map.of(
      "hbase.blockcache.use.external", "external (memcached) block caches are not supported",
      "hbase.bucketcache.combinedcache.enabled", "the L1 + L2 split is always HBase 2.x's combined cache",
      "hbase.lru.blockcache.hard.capacity.limit", "use " + LruConfig.HARD_CAPACITY_LIMIT_FACTOR,
      "hbase.bucketcache.bucket.sizes.auto", "bucket sizes are set by " + BucketCacheKeys.BUCKET_SIZES);

  /** Key prefixes that belong to block caches: a key under one of them that this list does not know is reported. */
  public static final List<String> CACHE_PREFIXES = List.of(
      "hfile.block.cache.", "hbase.lru.", "hbase.tinylfu.", "hbase.blockcache.", "hbase.bucketcache.");

  /** Whether {@code name} is a key in {@link #ALL}. */
  public static boolean isKnown(String name) {
    for (Key key : ALL) {
      if (key.name().equals(name)) {
        return true;
      }
    }
    return false;
  }
}
