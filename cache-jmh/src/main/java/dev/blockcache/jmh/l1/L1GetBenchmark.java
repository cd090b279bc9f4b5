package dev.blockcache.jmh.l1;

import dev.blockcache.jmh.BenchmarkDefaults;
import dev.blockcache.jmh.workload.KeyCursor;
import dev.blockcache.jmh.workload.KeyDistribution;
import dev.blockcache.jmh.workload.KeyIndexes;
import dev.blockcache.jmh.workload.KeySource;
import dev.blockcache.jmh.workload.ThreadCpu;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * L1 get-hit throughput, with each get made the way a storage engine's reader makes it: every get hits.
 *
 * <ul>
 *   <li><b>Workload</b>: {@link #residentMiB} MiB of blocks of {@link #blockSize} bytes (256 MiB: 65,536 blocks of
 *       4 KiB or 4,096 of 64 KiB) spread over 32 files, all cached before measurement into a cache that they fill to
 *       55–80% ({@link #capacity}), so that nothing is evicted and every get hits (a miss throws). Gets only: no
 *       insert, no eviction.</li>
 *   <li><b>Keys</b>: {@link KeyDistribution#UNIFORM} or {@link KeyDistribution#ZIPF} (s = 0.99, hottest ranks
 *       scattered over the key space), drawn in advance from a fixed seed into a 2^20-entry index array; each thread
 *       walks the array from its own start with an index increment, so the hot loop pays no random-number cost.
 *       Each get comes by its key as {@link #keySource} says: {@link KeySource#PER_LOOKUP} builds it from the file's
 *       shared name {@code String} and the offset (HBase: {@code new BlockCacheKey(name, offset, true, DATA)}, ours:
 *       {@code BlockKey.of(name, offset)}), {@link KeySource#FILE_HANDLE} by a per-file handle (ours:
 *       {@code getBlock(handle, offset, options)}, no key), {@link KeySource#PREBUILT} takes it from an array (no
 *       reader pays that; a reference row).</li>
 *   <li><b>Per get</b>: the competitor's get, the block's first, middle and last byte read ({@link ThreeBytes}), and
 *       the reference the get handed out released per the competitor's contract (ours: {@code ByteBuf.release()};
 *       HBase: {@code getBufferWithoutHeader()} read, then {@code Cacheable.release()} of the reference
 *       {@code getBlock} retained for the caller; the scoped competitors release nothing: the cache lends the block
 *       for the reader's call). Hits are counted in each cache's statistics, as on a reader's normal path.</li>
 *   <li><b>Threads</b>: {@link #get1Thread} and {@link #get2Threads}, the same get with 1 and 2 threads.</li>
 *   <li><b>CPU time</b>: besides ops/s, each thread's CPU time per get ({@link ThreadCpu}: {@code cpuNanos} over
 *       {@code cpuOps}), which stays comparable when other processes share the cores.</li>
 *   <li><b>Competitors</b> ({@link L1Competitor}): OURS_LRU, OURS_TINYLFU, OURS_LRU_SCOPED, OURS_TINYLFU_SCOPED,
 *       HBASE_LRU, HBASE_TINYLFU, CAFFEINE (plain bounded {@code Cache.getIfPresent}), CHM
 *       ({@code ConcurrentHashMap.get}).</li>
 *   <li><b>Lifecycle</b>: OURS_LRU's background evictor is started, as in production; with no inserts it never runs.
 *       HBase's LruBlockCache runs its eviction thread too. OURS_TINYLFU's maintenance thread is started, so that
 *       Caffeine's read-buffer drains run there, as HBase's TinyLFU and CAFFEINE (Caffeine's default executor) run
 *       them on the common pool.</li>
 * </ul>
 *
 * <p>Run (quick mode, results and the Markdown report in {@code results/}):
 * <pre>./mvnw -B -Pbench verify -pl cache-jmh -am -DskipTests -Dbench.include=L1GetBenchmark -Dbench.prof=gc</pre>
 * and for 64 KiB blocks add {@code -Dbench.params=blockSize=65536}; or, on the built classpath,
 * {@code java -cp ... org.openjdk.jmh.Main L1GetBenchmark} for the annotated defaults.
 *
 * <p>Thread-safety: a JMH state; the adapter is shared by the benchmark threads, each walking its own {@link KeyCursor}
 * and reading through its own {@link ThreeBytes}.
 */
public class L1GetBenchmark extends BenchmarkDefaults {

  @Param
  public L1Competitor competitor;

  @Param
  public KeyDistribution distribution;

  /** How each get comes by its key. */
  @Param({"PER_LOOKUP", "PREBUILT"})
  public KeySource keySource;

  /** Bytes per block. */
  @Param("4096")
  public int blockSize;

  /** Bytes of blocks cached, in MiB: the key count is this over {@link #blockSize}. */
  @Param("256")
  public int residentMiB;

  private L1Adapter cache;
  private int[] sequence;

  /**
   * Each benchmark thread's reader for the scoped-read competitors: a plain {@link ThreeBytes}, the class the setup
   * reads with too, so that the measured gets see the receiver class the JIT compiled them for.
   *
   * <p>Thread-safety: a JMH thread state, used by its own thread only.
   */
  @State(Scope.Thread)
  public static class ThreadReader {
    final ThreeBytes reader = new ThreeBytes();
  }

  @Setup(Level.Trial)
  public void setUp() {
    int keys = (int) (((long) residentMiB << 20) / blockSize);
    sequence = distribution.sequence(keys, 0x5EED_1234L);
    cache = competitor.create(capacity(keys, blockSize), new Keys(blockSize), keys, keySource);
    cache.populate();
    // Touch every key once, so that a first access (HBase and OURS_LRU promote single to multi on it) does not
    // land in the measured phase, and check that the whole key set hits.
    ThreeBytes reader = new ThreeBytes();
    for (int i = 0; i < keys; i++) {
      cache.get(i, reader);
    }
    if (cache.blockCount() != keys) {
      throw new IllegalStateException(competitor + ": " + cache.blockCount() + " of " + keys + " blocks cached");
    }
  }

  /**
   * Each cache's capacity: 1.25 × {@code keys × (block + 1 KiB)}, so that the content fills 55–80% of it whatever
   * per-entry overhead a competitor accounts. Above half full matters: Caffeine (raw, ours and HBase's TinyLFU)
   * starts its frequency sketch, and with it the recording of reads, only at half of a weighted cache's maximum, so
   * a half-empty cache would measure a Caffeine that skips its policy work. Below HBase's acceptable factor (0.99)
   * matters too: nothing is evicted.
   */
  static long capacity(int keys, int blockSize) {
    return (long) keys * (blockSize + 1024) * 5 / 4;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    cache.close();
  }

  @Benchmark
  @Threads(1)
  public int get1Thread(KeyCursor cursor, ThreadReader reader, ThreadCpu cpu) {
    cpu.tick();
    return cache.get(sequence[cursor.next(KeyIndexes.MASK)], reader.reader);
  }

  @Benchmark
  @Threads(2)
  public int get2Threads(KeyCursor cursor, ThreadReader reader, ThreadCpu cpu) {
    cpu.tick();
    return cache.get(sequence[cursor.next(KeyIndexes.MASK)], reader.reader);
  }
}
