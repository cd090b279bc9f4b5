package dev.blockcache.jmh.l1;

import dev.blockcache.jmh.BenchmarkDefaults;
import dev.blockcache.jmh.workload.KeyCursor;
import dev.blockcache.jmh.workload.KeyDistribution;
import dev.blockcache.jmh.workload.KeyIndexes;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * L1 throughput and hit ratio under a get/put mix: the cache keeps what its policy keeps of a working set twice its
 * size, and the hit ratio is reported beside ops/s.
 *
 * <ul>
 *   <li><b>Workload</b>: a key set of twice as many blocks of {@link #blockSize} bytes as {@link #capacityMiB} MiB
 *       holds (64 MiB: 32,768 keys of 4 KiB or 2,048 of 64 KiB; {@link Keys}: 32 files), keys drawn from
 *       {@link #distribution} (Zipf s = 0.99 by default, hottest ranks scattered) in advance from a fixed seed. Nine
 *       operations in ten are gets; every tenth puts the block of the thread's latest miss, if it has one not yet
 *       put (a get otherwise): 90% gets, 10% puts of missed blocks.</li>
 *   <li><b>Per get</b>: the key built from the file's name and the offset, the competitor's get, the block's first,
 *       middle and last byte read and the reference released per the competitor's contract
 *       ({@link L1MixedCompetitor}). <b>Per put</b>: the block read "from disk" into a fresh heap array and handed
 *       over (ours: {@code handOver}; HBase: {@code cacheBlock} of an on-heap {@code HFileBlock}).</li>
 *   <li><b>Pre-population</b>: the setup replays the whole key sequence once with a put after every miss, so that
 *       the cache is full and its policy has seen the distribution before the first warmup.</li>
 *   <li><b>Competitors</b>: OURS_LRU against HBASE_LRU, OURS_TINYLFU against CAFFEINE (plain, weighted as ours) and
 *       HBASE_TINYLFU, each running its eviction where it does in production (background threads, Caffeine's
 *       executor).</li>
 *   <li><b>Score</b>: ops/s; the aux counter {@code hitRatio} is the thread's hits per get over the iteration, in %
 *       (published divided by threads × iterations: JMH adds an aux counter up over both, see
 *       {@link dev.blockcache.jmh.experiments.YcsbLatency}).</li>
 * </ul>
 *
 * <p>Run (quick mode): {@code ./mvnw -B -Pbench verify -pl cache-jmh -am -DskipTests
 * -Dbench.include=L1MixedBenchmark}; all competitors at both sizes:
 * {@code -Dbench.params="competitor=OURS_LRU,HBASE_LRU,OURS_TINYLFU,CAFFEINE,HBASE_TINYLFU;blockSize=4096,65536"}.
 *
 * <p>Thread-safety: a JMH state; one benchmark thread, its own cursor and counters.
 */
public class L1MixedBenchmark extends BenchmarkDefaults {

  @Param
  public L1MixedCompetitor competitor;

  /** Bytes per block. */
  @Param({"4096", "65536"})
  public int blockSize;

  @Param("ZIPF")
  public KeyDistribution distribution;

  /** Cache capacity in MiB; the key set is twice what it holds. */
  @Param("64")
  public int capacityMiB;

  private L1MixedCompetitor.Mixed cache;
  private int[] sequence;

  /**
   * The thread's operations and its hit ratio over the iteration.
   *
   * <p>Thread-safety: a JMH thread state, used by its own thread only.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Outcome {
    /** Hits per get over the iteration in %, divided by threads × iterations (see the class notes). */
    public double hitRatio;
    private long gets;
    private long hits;
    private long ops;
    /** The latest missed key not yet put, or -1. */
    private int missed = -1;
    private int shares;
    /** The thread's reader of hit blocks. */
    private final ThreeBytes reader = new ThreeBytes();

    @Setup(Level.Iteration)
    public void start(ThreadParams thread, IterationParams iteration) {
      gets = 0;
      hits = 0;
      shares = thread.getThreadCount() * iteration.getCount();
    }

    @TearDown(Level.Iteration)
    public void finish() {
      hitRatio = gets == 0 ? 0 : 100.0 * hits / gets / shares;
    }
  }

  @Setup(Level.Trial)
  public void setUp() {
    long capacity = (long) capacityMiB << 20;
    int keys = (int) (2 * capacity / blockSize);
    sequence = distribution.sequence(keys, 0x5EED_4321L);
    cache = competitor.create(capacity, new Keys(blockSize));
    ThreeBytes reader = new ThreeBytes();
    for (int i : sequence) {
      if (!cache.get(i, reader)) {
        cache.put(i);
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    cache.close();
  }

  @Benchmark
  @Threads(1)
  public int mixed1Thread(KeyCursor cursor, Outcome outcome) {
    if (++outcome.ops % 10 == 0 && outcome.missed >= 0) {
      cache.put(outcome.missed);
      outcome.missed = -1;
      return 0;
    }
    int i = sequence[cursor.next(KeyIndexes.MASK)];
    outcome.gets++;
    if (cache.get(i, outcome.reader)) {
      outcome.hits++;
      return outcome.reader.last;
    }
    outcome.missed = i;
    return 0;
  }
}
