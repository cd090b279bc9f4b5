package dev.blockcache.jmh.l2;

import dev.blockcache.jmh.BenchmarkDefaults;
import dev.blockcache.jmh.workload.KeySource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * L2 inserts under eviction: how many new blocks per second a <b>full</b> bucket cache takes into its slots, and how
 * many it refuses, when one thread keeps offering blocks it has not seen. {@link L2InsertBurstBenchmark} measures
 * bursts into an emptied cache, where nothing is evicted; here every block that enters evicts one.
 *
 * <ul>
 *   <li><b>The cache</b>: {@value #CAPACITY_MB} MiB on {@link #engine} ({@code file}: a file in a temporary directory
 *       that the trial deletes; {@code offheap}), HBase's default bucket sizes, 3 writer threads of 64-entry queues,
 *       a queue wait of {@link #queueWaitMs} (HBase's {@code waitWhenCache}: a full queue is waited on that long).
 *       Before measurement (not timed) it is filled with {@value #FILL_TURNOVERS} × its slots' worth of blocks, so
 *       every measured block finds it full.</li>
 *   <li><b>Keys</b>: a cycle of {@value #KEY_TURNOVERS} × the cache's slots (key {@code i} as
 *       {@link dev.blockcache.jmh.l1.Keys} maps it), offered in order and wrapping round: a key comes back only after
 *       the cache has taken {@value #KEY_TURNOVERS} - 1 cachefuls of other blocks, so each block offered is new to the
 *       cache (one still cached would count as not taken). Source blocks are built before measurement.</li>
 *   <li><b>One invocation</b> offers {@value #BURST_BLOCKS} blocks through the competitor's insert (ours:
 *       {@code cacheBlock}, {@code handOver}, or HBase's {@code cacheBlock(key, block, false, true)} through
 *       {@code HBaseL2Cache}; HBase's: {@code cacheBlock(key, block, false, true)}), then waits until the writers have
 *       drained, as {@link L2InsertBurstBenchmark} does: the time includes the writes.</li>
 *   <li><b>Metrics</b>: the score is blocks offered per second; {@code acceptedBlocks} (blocks per second that reached
 *       a slot: the growth of the blocks held plus the blocks evicted, {@link L2Adapter#slotted}) and
 *       {@code refusedBlocks} (offered but never in a slot: refused at the queue, declined by admission, or dropped by
 *       a writer for lack of space) are JMH auxiliary counters over the same time. {@code refusedBlocks / score} is
 *       the refused fraction. A cache that keeps up refuses none: every block offered evicts one that is not pinned.</li>
 *   <li><b>Competitors</b>: OURS_ZERO_COPY (our default {@code cacheBlock}, which copies), OURS_HAND_OVER
 *       ({@code handOver}), OURS_HBASE_API (ours behind HBase's {@code BlockCache} interface: HBase's blocks handed
 *       over, as a RegionServer would insert) and HBASE_BUCKET.</li>
 * </ul>
 *
 * <p>Run:
 * <pre>./mvnw -B -Pbench verify -pl cache-jmh -am -DskipTests -Dbench.include=L2InsertUnderEvictionBenchmark</pre>
 *
 * <p>Thread-safety: a JMH state used by one benchmark thread.
 */
@Threads(1)
public class L2InsertUnderEvictionBenchmark extends BenchmarkDefaults {
  /** Blocks per invocation: as {@link L2InsertBurstBenchmark}'s burst. */
  static final int BURST_BLOCKS = L2InsertBurstBenchmark.BURST_BLOCKS;
  /** Cache capacity in MiB: large enough for thousands of 64 KiB slots, small enough to fill in seconds. */
  static final int CAPACITY_MB = 128;
  /** Cachefuls of blocks offered before measurement: the first fills the cache, the second evicts throughout. */
  static final int FILL_TURNOVERS = 2;
  /** Cachefuls in the key cycle: a key is offered again only after two cachefuls of other blocks. */
  static final int KEY_TURNOVERS = 3;

  @Param({"OURS_ZERO_COPY", "OURS_HAND_OVER", "OURS_HBASE_API", "HBASE_BUCKET"})
  public L2Competitor competitor;

  @Param({"file", "offheap"})
  public String engine;

  @Param({"4096", "65536"})
  public int blockSize;

  @Param({"1000"})
  public long queueWaitMs;

  private L2Adapter cache;
  private Path dir;
  /** Keys in the cycle. */
  private int keys;
  /** The next key to offer. */
  private int next;

  /** What a burst put in slots and what it did not; JMH reports both per second of measured (burst) time. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Outcome {
    /** Blocks of the burst that reached a slot. */
    public long acceptedBlocks;
    /** Blocks of the burst that never reached a slot. */
    public long refusedBlocks;

    @Setup(Level.Iteration)
    public void reset() {
      acceptedBlocks = 0;
      refusedBlocks = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    long capacity = (long) CAPACITY_MB << 20;
    int slots = (int) (capacity / blockSize); // an upper bound: every slot holds a header too
    keys = KEY_TURNOVERS * slots;
    String ioEngine = L2Setup.OFFHEAP;
    if (engine.equals("file")) {
      dir = Files.createTempDirectory("l2-insert-under-eviction");
      ioEngine = "file:" + dir.resolve("cache.bin");
    } else if (!engine.equals(L2Setup.OFFHEAP)) {
      throw new IllegalArgumentException("engine " + engine + ": file or offheap");
    }
    cache = competitor.build(new L2Setup(keys, blockSize, capacity, queueWaitMs,
        KeySource.PER_LOOKUP, ioEngine));
    cache.prepareSources();
    for (int i = 0; i < FILL_TURNOVERS * slots; i++) {
      offer();
      if (next % BURST_BLOCKS == 0) {
        cache.drain();
      }
    }
    cache.drain();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    cache.close();
    if (dir != null) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
  }

  private void offer() {
    cache.insert(next);
    next = next + 1 == keys ? 0 : next + 1;
  }

  @Benchmark
  @OperationsPerInvocation(BURST_BLOCKS)
  public long burst(Outcome outcome) {
    long before = cache.slotted();
    for (int i = 0; i < BURST_BLOCKS; i++) {
      offer();
    }
    cache.drain();
    long accepted = cache.slotted() - before;
    outcome.acceptedBlocks += accepted;
    outcome.refusedBlocks += BURST_BLOCKS - accepted;
    return accepted;
  }
}
