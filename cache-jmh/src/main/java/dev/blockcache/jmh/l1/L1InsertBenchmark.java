package dev.blockcache.jmh.l1;

import dev.blockcache.jmh.BenchmarkDefaults;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * L1 inserts under sustained eviction pressure: every insert is a block the cache has never seen, into a cache that
 * is full from the first measured second on.
 *
 * <ul>
 *   <li><b>Workload</b>: one thread inserts block after block (key {@code i} of {@link Keys}: 32 files, offsets
 *       growing; in {@link #order}), each read "from disk" into a fresh heap array of {@link #blockSize} bytes
 *       first (HBase's array also has its 33-byte header in front), its key built from the file's name and the
 *       offset, as a storage engine's reader caches a block it has just read. No gets.</li>
 *   <li><b>Cache</b>: {@link #capacityMiB} MiB (64: 16,384 blocks of 4 KiB or 1,024 of 64 KiB), filled by the warmup
 *       (the warmup inserts several times the capacity), so that the measured inserts evict as fast as they insert.
 *       Each cache runs its own eviction as in production: ours LRU and HBase's LRU on their background threads,
 *       ours TinyLFU on its maintenance thread (the inserting thread evicts only past the overshoot bound), HBase's
 *       TinyLFU on the common fork-join pool.</li>
 *   <li><b>Competitors</b> ({@link L1InsertCompetitor}): {@code OURS_LRU} and {@code OURS_TINYLFU} insert with
 *       {@code cacheBlock} (a copy), the {@code _HAND_OVER} rows with {@code handOver} (the cache keeps the array),
 *       {@code HBASE_LRU} and {@code HBASE_TINYLFU} with {@code cacheBlock} of an on-heap {@code HFileBlock} (a
 *       reference kept); {@code RING_FLOOR} (full mode and on request) keeps the blocks in a ring without any cache
 *       work, the floor set by reading the blocks and collecting them.</li>
 *   <li><b>Score</b>: ops/s is blocks offered; the aux counters split them into {@code cachedBlocks} (taken by the
 *       cache) and {@code refusedBlocks} (HBase's LRU refuses above its hard limit while its evictor lags; ours
 *       reports a failed {@code CacheResult}). The target compares {@code cachedBlocks}.</li>
 * </ul>
 *
 * <p>Run (quick mode): {@code ./mvnw -B -Pbench verify -pl cache-jmh -am -DskipTests
 * -Dbench.include=L1InsertBenchmark -Dbench.prof=gc}.
 *
 * <p>Thread-safety: a JMH state; one benchmark thread, its own counters.
 */
public class L1InsertBenchmark extends BenchmarkDefaults {

  @Param
  public L1InsertCompetitor competitor;

  /** Bytes per block. */
  @Param({"4096", "65536"})
  public int blockSize;

  /**
   * The order of the blocks offered ({@link InsertOrder}): sequential by default; scattered on request, for a
   * key's hash locality (HBase's {@code BlockCacheKey} hash puts consecutive offsets of a file in related map bins).
   */
  @Param("SEQUENTIAL")
  public InsertOrder order;

  /** Cache capacity in MiB. */
  @Param("64")
  public int capacityMiB;

  private L1InsertCompetitor.Inserter cache;
  /** The next block to insert, over the whole trial: warmup inserts fill the cache, measured ones evict. */
  private final AtomicLong next = new AtomicLong();

  /** What became of the blocks offered, per second (JMH divides by the iteration's time). */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Outcome {
    public long cachedBlocks;
    public long refusedBlocks;

    @Setup(Level.Iteration)
    public void reset() {
      cachedBlocks = 0;
      refusedBlocks = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() {
    cache = competitor.create((long) capacityMiB << 20, new Keys(blockSize));
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    cache.close();
  }

  @Benchmark
  @Threads(1)
  public boolean insert1Thread(Outcome outcome) {
    boolean cached = cache.insert(order.block(next.getAndIncrement()));
    if (cached) {
      outcome.cachedBlocks++;
    } else {
      outcome.refusedBlocks++;
    }
    return cached;
  }
}
