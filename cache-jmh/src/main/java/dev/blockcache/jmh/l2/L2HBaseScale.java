package dev.blockcache.jmh.l2;

import dev.blockcache.jmh.HeapFigure;
import dev.blockcache.jmh.workload.KeySource;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;

/**
 * HBase 2.6.4's {@code BucketCache} in the scale experiment (a child JVM of {@code ScaleExperiment}): heap per cached
 * block at {@code blocks} blocks, measured as {@link L2HeapPerEntry} measures it (forced-GC delta of the whole JVM,
 * blocks of 256 bytes in items of {@code {512, 8192}}), on a {@code file:} engine so
 * that millions of blocks need no direct memory: first without persistence (HBase's default), then with a
 * persistence path (what its warm restart needs, which costs heap of its own); then its restart: {@code shutdown}
 * persists the backing map, and a new cache on the same files restores it, timed from the constructor to a backing
 * map holding every block. While it fills, its periodic persistence is put off to a day (as the scale experiment
 * puts off ours): HBase 2.6 rewrites its whole backing map at every period (one second by default), which at millions
 * of blocks never lets a fill finish; {@code shutdown} still persists it.
 *
 * <p>Arguments: {@code blocks dir}; prints {@code key=value} lines. Thread-safety: a main.
 */
public final class L2HBaseScale {
  /** HBase 2.6's key for the period of its backing map's persistence (its {@code BucketCache} constant). */
  private static final String PERSIST_INTERVAL_KEY = "hbase.bucketcache.persist.intervalinmillis";
  /** A day: no periodic persistence during the fill. */
  private static final long NO_PERIODIC_PERSISTENCE_MS = 86_400_000L;
  /** How long a restore may take before the child gives up: beyond what any figure of HBase's reports. */
  private static final long RESTORE_BOUND_NANOS = TimeUnit.MINUTES.toNanos(20);

  private L2HBaseScale() {}

  public static void main(String[] args) throws Exception {
    int exit = 0;
    try {
      run(args);
    } catch (Exception | Error e) {
      e.printStackTrace(System.out);
      exit = 1;
    }
    System.exit(exit); // HBase's executors are not daemons: a failure must not leave this JVM waiting on them
  }

  private static void run(String[] args) throws Exception {
    int blocks = Integer.parseInt(args[0]);
    Path dir = Path.of(args[1]);
    long capacity = (long) blocks * L2HeapPerEntry.BUCKET_SIZES[0] * 5 / 4;
    L2Setup setup = new L2Setup(blocks, L2HeapPerEntry.BLOCK_BYTES, capacity, L2GetBenchmark.POPULATE_QUEUE_WAIT_MS,
        KeySource.PER_LOOKUP, "file:" + dir.resolve("hbase-cache.bin"));
    Filled plain = filled(setup, null);
    put("hbase_heap_per_block", plain.heapPerBlock());
    plain.cache().close();
    String persistence = dir.resolve("hbase-index").toString();
    long cached = fillAndShutDown(setup, persistence);
    HeapFigure.settledHeap(); // the shut-down cache is collected before the restart is timed
    long t0 = System.nanoTime();
    Configuration restartConf = new Configuration(false);
    restartConf.setLong(PERSIST_INTERVAL_KEY, NO_PERIODIC_PERSISTENCE_MS);
    BucketCache restored = HBaseBucketAdapter.newCache(setup, L2HeapPerEntry.BUCKET_SIZES, HConstants.DEFAULT_BLOCKSIZE,
        persistence, restartConf);
    while (restored.getBackingMap().size() < cached && System.nanoTime() - t0 < RESTORE_BOUND_NANOS) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // in case the restore runs on a thread of its own
    }
    put("hbase_restart_ms", (System.nanoTime() - t0) / 1e6);
    put("hbase_restart_blocks", restored.getBackingMap().size());
    restored.shutdown();
  }

  /**
   * Fills a cache persisting to {@code persistence}, reports its heap per block, and shuts it down (which persists its
   * backing map, timed); returns the blocks it held. Nothing of that cache stays reachable.
   */
  private static long fillAndShutDown(L2Setup setup, String persistence) {
    Filled filled = filled(setup, persistence);
    put("hbase_persistent_heap_per_block", filled.heapPerBlock());
    long cached = filled.cache().blockCount();
    long t0 = System.nanoTime();
    filled.cache().close(); // shutdown: persists the backing map
    put("hbase_shutdown_ms", (System.nanoTime() - t0) / 1e6);
    return cached;
  }

  /** A filled cache (the caller closes it) and its heap per block: the forced-GC delta from before it was made. */
  private record Filled(HBaseBucketAdapter cache, double heapPerBlock) {}

  /** HBase's cache for {@code setup} holding every block of it, persisting to {@code persistence} unless null. */
  private static Filled filled(L2Setup setup, String persistence) {
    long before = HeapFigure.settledHeap();
    Configuration conf = new Configuration(false);
    conf.setLong(PERSIST_INTERVAL_KEY, NO_PERIODIC_PERSISTENCE_MS);
    HBaseBucketAdapter cache = HBaseBucketAdapter.forFootprint("HBASE_BUCKET", setup, L2HeapPerEntry.BUCKET_SIZES,
        persistence, conf);
    long refused = 0;
    for (int i = 0; i < setup.keys(); i++) {
      refused += cache.insert(i) ? 0 : 1; // a writer queue still full after the wait; its persister slows writers
    }
    cache.drain();
    put(persistence == null ? "hbase_refused" : "hbase_persistent_refused", refused);
    if (refused > setup.keys() / 100) {
      throw new IllegalStateException("HBase refused " + refused + " of " + setup.keys() + " blocks");
    }
    double perBlock = (double) (HeapFigure.settledHeap() - before) / cache.blockCount();
    return new Filled(cache, perBlock);
  }

  private static void put(String key, double value) {
    System.out.println(key + "=" + String.format(Locale.ROOT, "%.6g", value));
  }

  private static void put(String key, long value) {
    System.out.println(key + "=" + value);
  }
}
