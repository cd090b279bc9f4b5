package dev.blockcache.bucket.config;

/**
 * The names of the L2's configuration keys: HBase's {@code hbase.bucketcache.*} keys with HBase's meanings, and the
 * keys this library adds. One low-level class, so that the engines, persistence and the configuration name a key in
 * an error without depending on the configuration class; defaults and limits live with the code that applies them.
 *
 * <p>Thread-safety: constants only.
 */
public final class BucketCacheKeys {
  private BucketCacheKeys() {
  }

  public static final String IOENGINE = "hbase.bucketcache.ioengine";
  public static final String SIZE = "hbase.bucketcache.size";
  public static final String BUCKET_SIZES = "hbase.bucketcache.bucket.sizes";
  public static final String WRITER_THREADS = "hbase.bucketcache.writer.threads";
  public static final String WRITER_QUEUE_LENGTH = "hbase.bucketcache.writer.queuelength";
  public static final String QUEUE_ADDITION_WAIT_TIME = "hbase.bucketcache.queue.addition.waittime";
  public static final String ACCEPT_FACTOR = "hbase.bucketcache.acceptfactor";
  public static final String MIN_FACTOR = "hbase.bucketcache.minfactor";
  public static final String EXTRA_FREE_FACTOR = "hbase.bucketcache.extrafreefactor";
  public static final String SINGLE_FACTOR = "hbase.bucketcache.single.factor";
  public static final String MULTI_FACTOR = "hbase.bucketcache.multi.factor";
  public static final String MEMORY_FACTOR = "hbase.bucketcache.memory.factor";
  /** New key: return heap copies from gets instead of zero-copy views (the "copy" read path of HBASE-11425). */
  public static final String COPY_ON_READ = "hbase.bucketcache.read.copy";
  /**
   * New key: on memory engines, {@code cacheBlock} writes the block into its slot on the calling thread instead of
   * queueing it for a writer thread (one copy instead of two, no hand-off); a cache on an engine that is not
   * memory ({@code IoEngine.isMemory()}) refuses it.
   */
  public static final String WRITER_INLINE = "hbase.bucketcache.writer.inline";
  /**
   * New key: the L2 admission and eviction policy, {@code tinylfu} (the default: frequency-aware admission, a full
   * cache) or {@code hbase} (HBase's BucketCache behaviour, to compare); see {@code dev.blockcache.bucket.config.L2Policy}.
   */
  public static final String EVICTION_POLICY = "hbase.bucketcache.eviction.policy";
  /**
   * New key: the most bytes per second the L2 writes (slot header and block), enforced at admission; 0 (the
   * default) sets no bound. A block refused for it counts as not admitted, with that reason.
   */
  public static final String MAX_WRITE_RATE = "hbase.bucketcache.admission.max.write.rate";
  /**
   * New key: under tinylfu, the smallest share of the cached blocks kept in the admission window (admitted without a
   * frequency test, judged when they leave it; see {@code dev.blockcache.bucket.policy.FrequencyEviction}), where the
   * window starts unless the lookups sampled while the cache filled favour a larger share; 0 turns the window off and
   * judges every block on arrival.
   */
  public static final String ADMISSION_WINDOW = "hbase.bucketcache.admission.window.factor";
  /**
   * New key: under tinylfu, the largest share of the cached blocks the admission window climbs to
   * ({@code dev.blockcache.bucket.policy.WindowClimber}); equal to {@value #ADMISSION_WINDOW} fixes the window's share.
   */
  public static final String ADMISSION_WINDOW_MAX = "hbase.bucketcache.admission.window.max.factor";
  /** New key: open {@code file:}/{@code files:} engines with O_DIRECT (4096-byte aligned IO, no page cache). */
  public static final String FILE_DIRECT_IO = "hbase.bucketcache.file.directio";
  /** New key: verify each block's CRC32C when it is read from a file engine (memory engines never check it). */
  public static final String CHECKSUM_VERIFY = "hbase.bucketcache.checksum.verify";
  /** HBase's key: IO errors sustained this long (ms) disable the L2. */
  public static final String IO_ERRORS_TOLERATED_DURATION = "hbase.bucketcache.ioengine.errors.tolerated.duration";
  /** Where the L2 index is checkpointed (unset: no persistence, cold start). */
  public static final String PERSISTENT_PATH = "hbase.bucketcache.persistent.path";
  /** Milliseconds between index checkpoints. */
  public static final String PERSIST_INTERVAL = "hbase.bucketcache.persist.intervalinmillis";
}
