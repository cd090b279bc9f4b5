package dev.blockcache.jmh.scale;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.stats.BucketCacheMetrics;
import dev.blockcache.jmh.HeapFigure;
import dev.blockcache.jmh.L2Drain;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The child JVMs of the scale experiment, one phase each, printing {@code key=value} lines for
 * {@code ScaleExperiment}:
 * <ol>
 *   <li>{@code fill}: on the header engine, {@code ScalePrefill} writes the cell's blocks' headers and checkpoint;
 *       heap baseline; open the cache, which restores them (on {@code file:}, fill it by inserts instead; no
 *       checkpoint runs but the one at close);
 *       heap per cached block (forced-GC delta of the whole JVM, full minus empty); idle gets; evict-by-file of a
 *       file of 100,000 blocks; gets while one thread inserts new blocks as fast as
 *       the cache takes them (eviction running); close (its final checkpoint timed); then a plain-array floor of
 *       the same heap footprint.</li>
 *   <li>{@code restart}: a clean restart from that checkpoint (timed), a warm sample, gets while checkpoints run back
 *       to back; then inserts that outdate the last checkpoint, {@code ready=1}, and it waits to be killed
 *       ({@code SIGKILL} from the parent).</li>
 *   <li>{@code recover}: restart after the kill (timed), a warm sample; every block served passed the cache's key
 *       and checksum checks; entries the checks refused are counted. On {@code file:}, then the device floor
 *       ({@link DeviceFloor}).</li>
 * </ol>
 * Blocks are zeros of the cell's block size, offered with {@code handOver} of a retained duplicate of one shared
 * buffer (the cache releases each reference once the block is in its slot).
 *
 * <p>Run by {@code ScaleExperiment}; arguments {@code phase blocks blockSize engine dir keysInserted}.
 *
 * <p>Thread-safety: a main.
 */
public final class ScaleChild {
  private static final CacheOptions WRITE = CacheOptions.of(BlockCategory.DATA);
  /** Checkpoint interval of the fill phase: a day, so only the close writes one. */
  private static final long NO_PERIODIC_CHECKPOINT_MS = 86_400_000L;
  /** Checkpoint interval of the restart phase: back to back, so that gets run during checkpoints. */
  private static final long BACK_TO_BACK_MS = 1;
  /** Measured window of every get and insert phase. */
  private static final long MEASURE_MS = 6_000;
  /** Warmup before a measured window (JIT, caches). */
  private static final long WARMUP_MS = 2_000;
  /** Longest wait for the first eviction once inserts of new blocks run. */
  private static final long EVICTION_WAIT_NANOS = 600_000_000_000L;
  /** Checkpoints the in-checkpoint window spans at least. */
  private static final int CHECKPOINTS = 2;
  /** Longest the in-checkpoint window may take. */
  private static final long CHECKPOINT_WAIT_NANOS = 120_000_000_000L;
  /** Insert rate of the paced eviction phase: 5,000 blocks of 64 KiB per second is over 300 MB/s of misses. */
  private static final double PACED_INSERTS_PER_S = 5_000;
  /** The fill phase's accepted inserts per second while evicting, for the recover phase's device floor. */
  private static final String INSERT_RATE_FILE = "insert-rate";
  /** Keys sampled to count blocks served warm after a restart. */
  private static final int WARM_SAMPLE = 100_000;

  private final ScaleCell cell;
  private final ScaleKeys names;
  private final ByteBuf zeros;

  private ScaleChild(ScaleCell cell) {
    this.cell = cell;
    this.names = cell.keys();
    this.zeros = Unpooled.directBuffer(cell.blockSize()).writeZero(cell.blockSize());
  }

  public static void main(String[] args) throws Exception {
    ScaleCell cell = ScaleCell.parse(args, 1);
    long inserted = Long.parseLong(args[5]);
    ScaleChild child = new ScaleChild(cell);
    try {
      switch (args[0]) {
        case "fill" -> child.fill();
        case "restart" -> child.restart(inserted);
        case "recover" -> child.recover(inserted);
        case "heap" -> child.heap();
        default -> throw new IllegalArgumentException("phase " + args[0]);
      }
    } finally {
      child.zeros.release();
    }
    System.exit(0); // HBase's and the cache's daemon threads aside, nothing may keep the child alive
  }

  private static void put(String key, double value) {
    System.out.println(key + "=" + String.format(Locale.ROOT, "%.6g", value));
    System.out.flush();
  }

  private static void put(String key, long value) {
    System.out.println(key + "=" + value);
    System.out.flush();
  }

  private boolean insert(BucketCache cache, BlockKey key) {
    return cache.handOver(key, zeros.retainedDuplicate(), WRITE) == CacheResult.CACHED; // the cache releases it
  }

  private void fill() throws IOException, InterruptedException {
    if (cell.engine() == ScaleCell.Engine.HEADERS) {
      long t0 = System.nanoTime();
      ScalePrefill.write(cell);
      put("prefill_s", (System.nanoTime() - t0) / 1e9);
    }
    long before = HeapFigure.settledHeap();
    long t0 = System.nanoTime();
    BucketCache cache = cell.open(NO_PERIODIC_CHECKPOINT_MS).cache();
    long refused = 0;
    if (cell.engine() == ScaleCell.Engine.HEADERS) {
      put("fill_restore_s", (System.nanoTime() - t0) / 1e9); // restored from the prefilled checkpoint
    } else {
      for (int i = 0; i < cell.blocks(); i++) {
        refused += insert(cache, names.key(i)) ? 0 : 1;
      }
      L2Drain.await(cache);
      put("fill_s", (System.nanoTime() - t0) / 1e9);
    }
    put("fill_refused", refused);
    put("cached", cache.blockCount());
    // Keys whose 64-bit index fingerprint collides with another's (a handful in 64M) are not cached: the index
    // keeps the first (see Fingerprint). Anything more is a failure of the fill.
    put("fingerprint_collisions", cell.blocks() - cache.blockCount());
    if (cache.blockCount() < cell.blocks() - cell.blocks() / 100_000) {
      throw new IllegalStateException(cache.blockCount() + " of " + cell.blocks() + " blocks cached");
    }
    long after = HeapFigure.settledHeap();
    put("heap_per_block", (double) (after - before) / cache.blockCount());
    BucketCacheMetrics m = cache.metrics();
    put("index_heap_per_block", m.indexHeapBytesPerEntry());

    GetLoop gets = new GetLoop(cache, names, 1);
    gets.run(cell.blocks(), WARMUP_MS);
    GetLoop.Result idle = gets.run(cell.blocks(), MEASURE_MS);
    put("get_idle_per_s", idle.getsPerSecond());
    put("get_idle_p999_us", idle.p999Micros());
    put("get_idle_p50_us", idle.p50Micros());
    put("busy_get_p999_us", besideBusyThread(gets).p999Micros());

    evictFile(cache);
    double insertsPerSecond = underEviction(cache, gets);
    long closeStart = System.nanoTime();
    cache.close();
    put("close_with_checkpoint_ms", (System.nanoTime() - closeStart) / 1e6);
    floor(after - before);
    Files.writeString(cell.dir().resolve(INSERT_RATE_FILE), Double.toString(insertsPerSecond));
    put("sink", gets.sink());
  }

  /**
   * The heap of a filled cache two ways: the forced-GC delta of the whole JVM (as {@code fill}) and the delta of the
   * live objects a class histogram counts (the JVM's {@code GC.class_histogram}, after its own full GC), which leaves
   * out whatever the collector keeps as used without it being live. The JVM exits without closing the cache.
   */
  private void heap() throws IOException {
    ScalePrefill.write(cell);
    long before = HeapFigure.settledHeap();
    long liveBefore = LiveHeap.bytes();
    long t0 = System.nanoTime();
    BucketCache cache = cell.open(NO_PERIODIC_CHECKPOINT_MS).cache();
    put("heap_restore_s", (System.nanoTime() - t0) / 1e9);
    long after = HeapFigure.settledHeap();
    long liveAfter = LiveHeap.bytes();
    put("heap_only_per_block", (double) (after - before) / cache.blockCount());
    put("live_heap_per_block", (double) (liveAfter - liveBefore) / cache.blockCount());
  }

  private void evictFile(BucketCache cache) {
    for (int b = 0; b < ScaleCell.EVICT_FILE_BLOCKS; b++) {
      insert(cache, BlockKey.of(ScaleCell.EVICT_FILE, (long) b * cell.blockSize()));
    }
    L2Drain.await(cache);
    long t0 = System.nanoTime();
    int evicted = cache.evictBlocksByFile(ScaleCell.EVICT_FILE);
    put("evict_file_ms", (System.nanoTime() - t0) / 1e6);
    put("evict_file_blocks", evicted);
  }

  /**
   * Gets on this thread while another inserts new keys from {@code blocks} on: first as fast as the cache takes them
   * (once the cache is full and evicting), then paced at {@value #PACED_INSERTS_PER_S} blocks per second or half the
   * first phase's rate, whichever is lower, so that the gets' p99.9 shows what eviction costs them rather than two
   * cores shared by more runnable threads. Returns the first phase's accepted inserts per second.
   */
  private double underEviction(BucketCache cache, GetLoop gets) {
    AtomicLong next = new AtomicLong(cell.blocks());
    Evicting flat = evicting(cache, gets, next, 0);
    put("evict_fill_to_full_keys", flat.keysToFull());
    put("evict_get_per_s", flat.gets().getsPerSecond());
    put("evict_get_p999_us", flat.gets().p999Micros());
    put("evict_get_hit_share", flat.gets().hits() / (double) (flat.gets().hits() + flat.gets().misses()));
    put("evict_insert_per_s", flat.insertsPerSecond());
    put("evict_evicted_per_s", flat.evictedPerSecond());
    Evicting paced = evicting(cache, gets, next, Math.min(PACED_INSERTS_PER_S, flat.insertsPerSecond() / 2));
    put("paced_get_p999_us", paced.gets().p999Micros());
    put("paced_insert_per_s", paced.insertsPerSecond());
    put("paced_evicted_per_s", paced.evictedPerSecond());
    put("evict_no_space", cache.metrics().noSpaceCount());
    put("keys_inserted", next.get());
    return flat.insertsPerSecond();
  }

  /** One phase of {@link #underEviction}: the gets measured, and the inserts and evictions per second meanwhile. */
  private record Evicting(GetLoop.Result gets, double insertsPerSecond, double evictedPerSecond, long keysToFull) {}

  /**
   * Gets for {@link #MEASURE_MS} (after a warmup, and after the first eviction) while another thread inserts keys
   * from {@code next} on, {@code perSecond} of them per second (0: as fast as the cache takes them).
   */
  private Evicting evicting(BucketCache cache, GetLoop gets, AtomicLong next, double perSecond) {
    AtomicBoolean stop = new AtomicBoolean();
    long first = next.get();
    Thread inserter = new Thread(() -> {
      long start = System.nanoTime();
      for (long n = 0; !stop.get(); n++) {
        long wait = perSecond <= 0 ? 0 : start + (long) (n * 1e9 / perSecond) - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
        insert(cache, names.key(next.getAndIncrement()));
      }
    }, "scale-inserter");
    inserter.start();
    long evictionWait = System.nanoTime() + EVICTION_WAIT_NANOS;
    while (cache.stats().evictedBlockCount() == 0 && System.nanoTime() < evictionWait) {
      gets.run(cell.blocks(), 200); // until the cache is full and evicting
    }
    long keysToFull = next.get() - first;
    gets.run(cell.blocks(), WARMUP_MS);
    long evictedBefore = cache.stats().evictedBlockCount();
    long insertedBefore = next.get();
    GetLoop.Result measured = gets.run(cell.blocks(), MEASURE_MS);
    long inserted = next.get() - insertedBefore;
    long evicted = cache.stats().evictedBlockCount() - evictedBefore;
    stop.set(true);
    try {
      inserter.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    L2Drain.await(cache);
    double seconds = MEASURE_MS / 1000.0;
    return new Evicting(measured, inserted / seconds, evicted / seconds, keysToFull);
  }

  /**
   * Gets while one more thread only computes (no lock, no memory traffic, nothing of the cache's): the scheduling
   * floor of a phase in which one other thread of the cache works, such as a checkpoint. Where the machine has
   * fewer free cores than runnable threads, the gets' p99.9 there is a descheduled get, not a held lock.
   */
  private GetLoop.Result besideBusyThread(GetLoop gets) {
    AtomicBoolean stop = new AtomicBoolean();
    long[] sink = new long[1];
    Thread busy = new Thread(() -> {
      long x = 88172645463325252L;
      while (!stop.get()) {
        for (int i = 0; i < 4096; i++) {
          x ^= x << 13;
          x ^= x >>> 7;
          x ^= x << 17;
        }
      }
      sink[0] = x;
    }, "scale-busy");
    busy.start();
    try {
      return gets.run(cell.blocks(), MEASURE_MS);
    } finally {
      stop.set(true);
      try {
        busy.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      put("busy_sink", sink[0] & 1);
    }
  }

  /** Random reads of a {@code long[]} as large as the cache's heap: what the memory hierarchy alone costs. */
  private static void floor(long footprint) {
    int length = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(1 << 20, footprint / Long.BYTES));
    long[] array = new long[length];
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < length; i++) {
      array[i] = random.nextLong();
    }
    long sum = 0;
    for (int round = 0; round < 2; round++) { // the first round warms up
      long n = 0;
      long t0 = System.nanoTime();
      long end = t0 + 3_000_000_000L;
      while (System.nanoTime() < end) {
        for (int k = 0; k < 1024; k++) {
          sum += array[random.nextInt(length)];
        }
        n += 1024;
      }
      if (round == 1) {
        put("floor_per_s", n / ((System.nanoTime() - t0) / 1e9));
      }
    }
    put("floor_sink", sum & 1);
  }

  private void restart(long inserted) throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    ScaleCell.Opened opened = cell.open(BACK_TO_BACK_MS);
    BucketCache cache = opened.cache();
    put("restart_ms", (System.nanoTime() - t0) / 1e6);
    put("restart_blocks", cache.blockCount());
    warmSample(cache, inserted, "restart");
    put("restart_header_mismatch", cache.metrics().headerMismatchCount());
    GetLoop gets = new GetLoop(cache, names, 2);
    gets.run(cell.blocks(), WARMUP_MS);
    duringCheckpoints(opened, gets);
    // New blocks that evict old ones, some of them after the last checkpoint: a kill now leaves the checkpoint
    // naming slots that hold other blocks.
    long next = inserted;
    long end = System.nanoTime() + 3_000_000_000L;
    while (System.nanoTime() < end) {
      insert(cache, names.key(next++));
    }
    put("keys_inserted", next);
    put("ready", 1);
    Thread.currentThread().join(); // the parent kills this JVM with SIGKILL
  }

  /**
   * Gets while checkpoints run back to back (1 ms apart), from the start of one checkpoint to the start of the
   * {@value #CHECKPOINTS}th after it (at least {@link #MEASURE_MS}): the window divided by the checkpoints is one
   * checkpoint's time. An engine that does not count checkpoints gets a window of {@link #MEASURE_MS}.
   */
  private void duringCheckpoints(ScaleCell.Opened opened, GetLoop gets) {
    long deadline = System.nanoTime() + CHECKPOINT_WAIT_NANOS;
    long first = opened.checkpoints();
    while (opened.headers() != null && opened.checkpoints() == first && System.nanoTime() < deadline) {
      gets.run(cell.blocks(), 1); // until a checkpoint begins
    }
    long c0 = opened.checkpoints();
    long t0 = System.nanoTime();
    Histogram all = new Histogram(60_000_000_000L, 3);
    long n = 0;
    do {
      GetLoop.Result part = gets.run(cell.blocks(), 500);
      all.add(part.hitNanos());
      n += part.hits() + part.misses();
    } while (((opened.headers() != null && opened.checkpoints() < c0 + CHECKPOINTS)
        || System.nanoTime() - t0 < MEASURE_MS * 1_000_000)
        && System.nanoTime() < deadline);
    double ms = (System.nanoTime() - t0) / 1e6;
    long checkpoints = opened.checkpoints() - c0;
    put("ckpt_get_p999_us", all.getValueAtPercentile(99.9) / 1000.0);
    put("ckpt_get_per_s", n / (ms / 1000));
    put("ckpt_count", checkpoints);
    put("ckpt_mean_ms", opened.headers() != null && checkpoints > 0 ? ms / checkpoints : Double.NaN);
  }

  private void recover(long inserted) throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    BucketCache cache = cell.open(NO_PERIODIC_CHECKPOINT_MS).cache();
    put("recover_ms", (System.nanoTime() - t0) / 1e6);
    put("recover_blocks", cache.blockCount());
    warmSample(cache, inserted, "recover");
    BucketCacheMetrics m = cache.metrics();
    put("recover_header_mismatch", m.headerMismatchCount());
    put("recover_checksum_mismatch", m.checksumMismatchCount());
    cache.close();
    if (cell.engine() == ScaleCell.Engine.FILE) {
      // Last, as it writes into slots of the cache file, which no later phase reads.
      double insertsPerSecond = Double.parseDouble(Files.readString(cell.dir().resolve(INSERT_RATE_FILE)));
      DeviceFloor.Result device = new DeviceFloor(cell.dir().resolve("cache.bin"), cell.stored(),
          cell.capacity() / cell.stored()).measure(MEASURE_MS, insertsPerSecond);
      put("device_read_p999_idle_us", device.idleP999Micros());
      put("device_read_p999_writing_us", device.writingP999Micros());
    }
  }

  /** Gets of {@value #WARM_SAMPLE} keys drawn from every key inserted so far: how many are served. */
  private void warmSample(BucketCache cache, long inserted, String prefix) {
    GetLoop.Result r = new GetLoop(cache, names, 3).runCount(inserted, WARM_SAMPLE);
    put(prefix + "_sample_hits", r.hits());
    put(prefix + "_sample_expected", WARM_SAMPLE * (double) cache.blockCount() / inserted);
  }
}
