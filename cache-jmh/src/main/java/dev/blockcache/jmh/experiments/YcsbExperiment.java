package dev.blockcache.jmh.experiments;

import dev.blockcache.api.BlockCache;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.combined.CombinedBlockCache;
import dev.blockcache.jmh.BenchmarkDefaults;
import dev.blockcache.minidb.BlockFileLayout;
import dev.blockcache.minidb.BlockFileReader;
import dev.blockcache.minidb.BlockFileReader.IndexMode;
import dev.blockcache.minidb.BlockFileReader.ReadMode;
import dev.blockcache.stack.BlockCacheFactory;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import site.ycsb.generator.DiscreteGenerator;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * Experiment 4, YCSB workloads over a dataset that fits in the cache and one much larger (Cloudera's HBase sizing
 * guide, seeds/ycsb-dataset-sizing.txt): workloads A, C, F and update-only ({@link YcsbWorkload}) through the mini
 * storage engine over a combined cache built by {@link BlockCacheFactory}, 2 threads.
 *
 * <p>Stack: L1 LruBlockCache of 4 MiB holding leaf index blocks ({@link IndexMode#LEAVES_IN_CACHE}), L2 offheap
 * BucketCache of {@value #L2_MB} MiB holding data blocks of 64 KiB (HBase's default), writer threads running.
 * Datasets ({@link Dataset}): {@code FITS} = 16 MiB of 1 KB rows, every block loaded into the L2 first (the guide
 * warmed its 40 GB set into a 61 GB cache); {@code LARGE} = 256 MiB, 8× the L2 (the guide: 1 TB over 61 GB of cache
 * and ~500 GB of OS cache). A miss reads the block file with checksums verified; the file sits in the OS page
 * cache, so a miss costs a 64 KiB read and CRC (tens of µs), not a disk seek: the collapse shows in a quick run, and
 * is smaller than one that went to HDFS and disks.
 *
 * <p>Operations: keys from YCSB's own {@link ScrambledZipfianGenerator} over the rows (YCSB's default for A, C and F;
 * much flatter than Zipf 0.99 over N keys, and not seedable: two runs draw different keys), operations from YCSB's
 * {@link DiscreteGenerator}. A read goes through the engine (bloom → leaf index in L1 → data block in L2 → row) and
 * then takes the {@link MemStore}'s newer copy if any; an update writes a 1 KB row into the memstore and never
 * touches the block cache (HBase: WAL + memstore); a read-modify-write does both and counts as one operation. Each
 * operation's latency goes to an HdrHistogram ({@link YcsbLatency}), with the tiers' hit ratios.
 *
 * <p>Published (CDP 7.2.2, 5 region servers, 15-minute runs): 40 GB → 1 TB, throughput C 165,063 → 3,030 ops/s
 * (÷55), A 79,439 → 6,855, F 55,157 → 3,704, update-only 63,030 → 62,605 (unchanged); C p99 0.48 → 110.85 ms; cache
 * hit ratio ~99% → ~83%.
 *
 * <p>Command: {@code ./mvnw -B -Pbench verify -pl cache-jmh -am -DskipTests -Dbench.include=YcsbExperiment} (quick;
 * {@code -Dbench.full=true} for full, {@code -Dbench.smoke=true} to check it runs).
 *
 * <p>Forks run with a {@value dev.blockcache.jmh.BenchmarkDefaults#SMALL_HEAP} heap (no HBase class is loaded, so
 * none of the base's {@code --add-opens} flags is needed).
 *
 * <p>Thread-safety: the cache, reader and memstore are shared by the benchmark threads and are thread-safe; the
 * generators are per thread.
 */
@Fork(value = 2, jvmArgsAppend = {
    "-Xms" + BenchmarkDefaults.SMALL_HEAP, "-Xmx" + BenchmarkDefaults.SMALL_HEAP, "-XX:+AlwaysPreTouch",
    "-XX:+UseTransparentHugePages"})
@State(Scope.Benchmark)
@Threads(2)
public class YcsbExperiment extends BenchmarkDefaults {
  /** L2 capacity in MiB. */
  static final int L2_MB = 32;
  /** Data block size: HBase's default. */
  static final int BLOCK_SIZE = 65536;

  /** The two dataset sizes of the guide, scaled down to run in a quick suite. */
  public enum Dataset {
    FITS(16), LARGE(256);

    final int megabytes;

    Dataset(int megabytes) {
      this.megabytes = megabytes;
    }
  }

  @Param({"A", "C", "F", "UPDATE_ONLY"})
  YcsbWorkload workload;

  @Param({"FITS", "LARGE"})
  Dataset dataset;

  private CombinedBlockCache cache;
  private BlockFileReader reader;
  private final MemStore memStore = new MemStore();
  private long rows;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    rows = ExperimentData.rowCount(dataset.megabytes);
    Configuration conf = new Configuration(false);
    conf.set("hfile.block.cache.memory.size", "4m");
    conf.set("hbase.bucketcache.ioengine", "offheap");
    conf.set("hbase.bucketcache.size", Integer.toString(L2_MB));
    BlockCache built = BlockCacheFactory.fromConfiguration(conf).orElseThrow();
    cache = (CombinedBlockCache) built;
    reader = BlockFileReader.open(ExperimentData.rows(dataset.megabytes, BLOCK_SIZE), cache,
        ReadMode.VERIFY_CHECKSUMS, IndexMode.LEAVES_IN_CACHE);
    if (dataset == Dataset.FITS) {
      ExperimentData.loadAll(reader, (BucketCache) cache.l2());
    } // LARGE: the file was just written or read, so it is in the page cache; JMH's warmup fills the L2

  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    reader.close();
    cache.close();
  }

  /** The combined cache, for {@link YcsbLatency}'s hit ratios. */
  CombinedBlockCache cache() {
    return cache;
  }

  /** One thread's YCSB generators and row buffer. */
  @State(Scope.Thread)
  public static class Client {
    ScrambledZipfianGenerator keys;
    DiscreteGenerator ops;
    final byte[] row = new byte[BlockFileLayout.ROW_SIZE];

    @Setup(Level.Trial)
    public void setUp(YcsbExperiment bench) {
      keys = new ScrambledZipfianGenerator(bench.rows);
      ops = bench.workload.chooser();
    }
  }

  @Benchmark
  public int operation(Client c, YcsbLatency latency) throws IOException {
    long id = c.keys.nextValue();
    YcsbWorkload.Op op = YcsbWorkload.Op.valueOf(c.ops.nextValue());
    long start = System.nanoTime();
    if (op != YcsbWorkload.Op.UPDATE) {
      read(id, c.row);
    }
    if (op != YcsbWorkload.Op.READ) {
      c.row[BlockFileLayout.ROW_SIZE - 1]++; // the modification: one byte of the row's last field
      memStore.put(id, c.row);
    }
    latency.record(System.nanoTime() - start);
    return c.row[8];
  }

  private void read(long id, byte[] row) throws IOException {
    if (!reader.readRow(id, row)) {
      throw new IllegalStateException("row " + id + " missing");
    }
    memStore.overlay(id, row);
  }
}
