package dev.blockcache.jmh.l2;

import dev.blockcache.jmh.BenchmarkDefaults;
import dev.blockcache.jmh.workload.KeyCursor;
import dev.blockcache.jmh.workload.KeyIndexes;
import dev.blockcache.jmh.workload.KeySource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * L2 get-hit throughput: how many gets per second a bucket cache serves from its offheap slots when every get hits.
 *
 * <ul>
 *   <li><b>Workload</b>: {@value #CONTENT_BYTES} bytes (256 MiB) of blocks of {@link #blockSize} bytes (65,536 blocks
 *       of 4 KiB, or 4,096 of 64 KiB) over 32 files, cached before measurement into a cache of 1.5 × keys ×
 *       (block + 1 KiB) so that nothing is evicted. Population waits for queue room (queue-addition wait 10 s) so
 *       that no block is refused, then <b>waits until the writer queues have drained</b>: every get reads a slot,
 *       none is served from the RAM cache of blocks waiting for a writer. Every key is then read once (the single
 *       to multi promotion happens before measuring) and the block count checked. Gets only while measuring.</li>
 *   <li><b>Keys</b>: uniform over the key set, drawn in advance from a fixed seed into a 2^20-entry index array
 *       that each thread walks from its own start. Each get comes by its key as {@link #keySource} says:
 *       {@link KeySource#PER_LOOKUP} (the default row) builds it from the file's shared name {@code String} and the
 *       offset, as a storage engine's reader does (ours {@code BlockKey.of}, HBase {@code new BlockCacheKey}),
 *       {@link KeySource#FILE_HANDLE} gets by a per-file handle and the offset (ours:
 *       {@code getBlock(handle, offset, options)}, no key; HBase and the floors build the key from the name),
 *       {@link KeySource#PREBUILT} takes it from an array built before measuring (a reference row).</li>
 *   <li><b>Per get</b>: the competitor's get, the block's first, middle and last byte read (ours from the view,
 *       HBase through {@code getBufferWithoutHeader()}, as its scanner reads a block), and the reference the get
 *       handed out given back (ours: {@code ByteBuf.release()} of the view or copy; HBase: {@code Cacheable.release()}
 *       of the block its {@code getBlock} retained for the caller). Hits are counted in each cache's
 *       statistics.</li>
 *   <li><b>Threads</b>: {@link #get1Thread} and {@link #get2Threads}.</li>
 *   <li><b>Competitors</b> ({@link L2Competitor}): OURS_ZERO_COPY, OURS_COPY ({@code hbase.bucketcache.read.copy}),
 *       HBASE_BUCKET (HBase 2.6.4, {@code offheap}), CHM (a heap {@code ConcurrentHashMap}, the lookup floor),
 *       SLOT_READ_FLOOR (that lookup to a slot offset plus one read of the slot: the floor of a get that must touch
 *       its slot, as ours does to check the key).</li>
 * </ul>
 *
 * <p>Run (quick mode, with allocation per get; results and report in {@code results/}):
 * <pre>./mvnw -B -Pbench verify -pl cache-jmh -am -DskipTests -Dbench.include=L2GetBenchmark -Dbench.prof=gc</pre>
 *
 * <p>Thread-safety: a JMH state; the adapter is shared by the benchmark threads, each walking its own {@link KeyCursor}.
 */
public class L2GetBenchmark extends BenchmarkDefaults {
  /** Bytes of block content cached, whatever the block size: 256 MiB, well above the CPU caches. */
  static final long CONTENT_BYTES = 256L << 20;
  /** Queue-addition wait while populating: long enough that no block is refused. */
  static final long POPULATE_QUEUE_WAIT_MS = 10_000;

  /** OURS_INLINE is left out: it differs from OURS_ZERO_COPY only in how blocks are written. */
  @Param({"OURS_ZERO_COPY", "OURS_COPY", "HBASE_BUCKET", "CHM", "SLOT_READ_FLOOR"})
  public L2Competitor competitor;

  @Param({"4096", "65536"})
  public int blockSize;

  @Param({"PER_LOOKUP", "FILE_HANDLE", "PREBUILT"})
  public KeySource keySource;

  private L2Adapter cache;
  private int[] sequence;

  @Setup(Level.Trial)
  public void setUp() {
    int keys = (int) (CONTENT_BYTES / blockSize);
    sequence = KeyIndexes.uniform(keys, 0x5EED_1234L);
    cache = competitor.build(new L2Setup(keys, blockSize, capacity(keys, blockSize), POPULATE_QUEUE_WAIT_MS,
        keySource));
    for (int i = 0; i < keys; i++) {
      if (!cache.insert(i)) {
        throw new IllegalStateException(competitor + ": block " + i + " refused while populating");
      }
    }
    cache.drain();
    for (int i = 0; i < keys; i++) {
      cache.get(i);
    }
    if (cache.blockCount() != keys) {
      throw new IllegalStateException(competitor + ": " + cache.blockCount() + " of " + keys + " blocks in slots");
    }
  }

  /** 1.5 × keys × (block + 1 KiB): room for the content in HBase's default size classes, below any accept factor. */
  static long capacity(int keys, int blockSize) {
    return (long) keys * (blockSize + 1024) * 3 / 2;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    cache.close();
  }

  @Benchmark
  @Threads(1)
  public int get1Thread(KeyCursor cursor) {
    return cache.get(sequence[cursor.next(KeyIndexes.MASK)]);
  }

  @Benchmark
  @Threads(2)
  public int get2Threads(KeyCursor cursor) {
    return cache.get(sequence[cursor.next(KeyIndexes.MASK)]);
  }
}
