package dev.blockcache.jmh.l2;

import dev.blockcache.jmh.BenchmarkDefaults;
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
 * L2 insert bursts: how fast a bucket cache takes a burst of new blocks into its slots, and how many it drops.
 *
 * <ul>
 *   <li><b>One invocation is one burst</b>: one thread offers {@value #BURST_BLOCKS} distinct blocks of
 *       {@link #blockSize} bytes (16 MiB of 4 KiB blocks, 256 MiB of 64 KiB blocks) through {@code cacheBlock} as
 *       fast as the cache returns, then <b>waits until the writers have drained</b> (ours: {@code awaitWritten},
 *       whose caller writes what the writers have not taken yet;
 *       HBase: its RAM-cache heap size back to 0). The time includes the drain, so the figure is the rate at which
 *       blocks reach slots, not the rate at which a queue accepts them.</li>
 *   <li><b>Free capacity</b>: before each burst (not timed) the cache is emptied by evict-by-file; its capacity is
 *       4 × the burst's slots, so the burst never needs an eviction.</li>
 *   <li><b>{@link #queueWaitMs}</b>: {@code hbase.bucketcache.queue.addition.waittime} for both caches. {@code 0}
 *       (HBase's default): a full writer queue refuses the block at once, so a burst faster than the writers loses
 *       blocks to the 3 × 64 queue bound. {@code 1000}: {@code cacheBlock} waits for queue room, so nothing should
 *       be dropped (the burst is throttled to the writers' pace instead).</li>
 *   <li><b>Metrics</b>: the primary score is blocks offered per second; {@code cachedMB} (MB/s, 10^6 bytes of block
 *       content that were in a slot after the drain) and {@code droppedBlocks} (blocks per second offered but not
 *       in a slot after the drain, refused or lost) and {@code refusedBlocks} (blocks per second that
 *       {@code cacheBlock} refused at a full queue) are JMH auxiliary counters over the same time.
 *       {@code droppedBlocks / score} is the dropped fraction; {@code droppedBlocks - refusedBlocks} counts blocks
 *       lost although a queue took them and capacity was free, which must be 0.</li>
 *   <li><b>Competitors</b>: OURS_ZERO_COPY (the default {@code cacheBlock}; the read path does not matter to
 *       inserts), OURS_HAND_OVER ({@code handOver}) and HBASE_BUCKET, all {@code offheap}, 3 writer threads, queues of
 *       64, HBase's default bucket sizes. Source blocks are built before measurement; {@code cacheBlock} copies each
 *       one to the heap, {@code handOver} and HBase keep a new reference to it in their RAM caches until it is in its
 *       slot: each as its reader path does. OURS_INLINE ({@code hbase.bucketcache.writer.inline=true}) copies
 *       each block straight into its slot inside {@code cacheBlock}: no queue, so nothing is refused and
 *       {@code queueWaitMs} does not apply (its two groups measure the same thing twice).</li>
 *   <li><b>The floor</b>: COPY_FLOOR is not a cache. It copies each block into its own slot of one direct buffer
 *       and does nothing else ({@link CopyFloorAdapter}), so its score is the fastest any cache that copies a block
 *       once into off-heap memory could take the burst on the same machine, and {@code COPY_FLOOR / HBASE_BUCKET} is the
 *       largest ratio over HBase that a competitor could reach in this run. SLOT_FLOOR is the same copy into slots
 *       laid out as HBase's default bucket sizes lay them out (a 4 KiB block at a 5 KiB stride spans two pages), so
 *       {@code SLOT_FLOOR / HBASE_BUCKET} bounds any cache that stores blocks in those sizes, HBase and ours included.
 *       {@code queueWaitMs} does not apply to either.</li>
 * </ul>
 *
 * <p>Run (quick mode):
 * <pre>./mvnw -B -Pbench verify -pl cache-jmh -am -DskipTests -Dbench.include=L2InsertBurstBenchmark -Dbench.prof=gc</pre>
 *
 * <p>Thread-safety: a JMH state used by one benchmark thread.
 */
@Threads(1)
public class L2InsertBurstBenchmark extends BenchmarkDefaults {
  /** Blocks per burst: 21 × HBase's total queue room (3 × 64), far beyond what the queues hold. */
  static final int BURST_BLOCKS = 4096;

  @Param({"OURS_ZERO_COPY", "OURS_HAND_OVER", "OURS_INLINE", "HBASE_BUCKET", "COPY_FLOOR", "SLOT_FLOOR"})
  public L2Competitor competitor;

  @Param({"4096", "65536"})
  public int blockSize;

  @Param({"0", "1000"})
  public long queueWaitMs;

  private L2Adapter cache;

  /** What a burst put in slots and what it lost; JMH reports both per second of measured (burst) time. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Outcome {
    /** Megabytes (10^6 bytes) of block content in slots after the burst's drain. */
    public double cachedMB;
    /** Blocks offered but not in a slot after the drain: refused by a full queue or dropped by a writer. */
    public long droppedBlocks;
    /**
     * Blocks {@code cacheBlock} refused because the writer queue stayed full. {@code droppedBlocks - refusedBlocks}
     * is what was lost after a queue accepted it, with free capacity: it must be 0.
     */
    public long refusedBlocks;

    @Setup(Level.Iteration)
    public void reset() {
      cachedMB = 0;
      droppedBlocks = 0;
      refusedBlocks = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() {
    long capacity = 4L * BURST_BLOCKS * (blockSize + 1024);
    cache = competitor.build(new L2Setup(BURST_BLOCKS, blockSize, capacity, queueWaitMs));
    cache.prepareSources();
  }

  /** Empties the cache before every burst (not timed) and checks that it is empty. */
  @Setup(Level.Invocation)
  public void empty() {
    cache.drain();
    cache.clear();
    if (cache.blockCount() != 0) {
      throw new IllegalStateException(competitor + ": " + cache.blockCount() + " blocks left after clear");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    cache.close();
  }

  @Benchmark
  @OperationsPerInvocation(BURST_BLOCKS)
  public long burst(Outcome outcome) {
    int refused = 0;
    for (int i = 0; i < BURST_BLOCKS; i++) {
      if (!cache.insert(i)) {
        refused++;
      }
    }
    cache.drain();
    long cached = cache.blockCount();
    outcome.cachedMB += cached * (double) blockSize / 1e6;
    outcome.droppedBlocks += BURST_BLOCKS - cached;
    outcome.refusedBlocks += refused;
    return cached;
  }
}
