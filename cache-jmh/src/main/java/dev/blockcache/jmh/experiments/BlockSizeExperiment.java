package dev.blockcache.jmh.experiments;

import dev.blockcache.config.LruConfig;
import dev.blockcache.jmh.BenchmarkDefaults;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.minidb.BlockFileLayout;
import dev.blockcache.minidb.BlockFileReader;
import dev.blockcache.minidb.BlockFileReader.ReadMode;
import java.io.IOException;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Experiment 1, block size (HBase 0.92 "Practical Caching" talk, seeds/hbase-practical-caching-2012.txt): random
 * 1 KB row reads through the mini storage engine with 4 KiB vs 64 KiB data blocks.
 *
 * <p>Workload: one thread reads uniformly random row ids (bloom → index → block → row, 1 KB copied out). Settings:
 * <ul>
 *   <li>{@code PAGE_CACHE}: no block cache; every read is a {@code FileChannel} positional read of the whole block
 *       from the OS page cache, checksums verified (as HDFS does). Dataset 32 MiB.</li>
 *   <li>{@code CACHED}: an L1 LruBlockCache 25% larger than the 32 MiB dataset, pre-populated: 100% hits.</li>
 *   <li>{@code LARGE}: a 256 MiB dataset over an 8 MiB L1 (32× the cache); misses read the file. The file
 *       stays in the OS page cache, so "disk" is memory (the talk's collapse came from real disks).</li>
 * </ul>
 *
 * <p>Published (2012, HBase 0.92 on a real cluster): cached 4 KiB ≈ 290k rows/s vs 64 KiB ≈ 265k/s (4K ~10% faster);
 * page-cache only 4 KiB ≈ 210k vs 140k (~50% faster); the large dataset collapses throughput ~20× (265k → 13k).
 * Shape checked by the report: 4K/64K ratio &gt; 1 in CACHED and PAGE_CACHE; CACHED/LARGE ratio &gt; 1.
 *
 * <p>Command: {@code ./mvnw -B -Pbench verify -Dbench.include=BlockSizeExperiment} (quick; add
 * {@code -Dbench.full=true} for full).
 *
 * <p>Thread-safety: a JMH state, one benchmark thread.
 */
@Threads(1)
@State(Scope.Benchmark)
public class BlockSizeExperiment extends BenchmarkDefaults {
  /** The three settings of the talk. */
  public enum Setting { PAGE_CACHE, CACHED, LARGE }

  /** Dataset of the PAGE_CACHE and CACHED settings, in MiB. */
  static final int SMALL_MB = 32;
  /** Dataset of the LARGE setting, in MiB: 32× its cache, still small enough to write in a few seconds. */
  static final int LARGE_MB = 256;
  /** Block cache of the LARGE setting, in MiB. */
  static final int LARGE_CACHE_MB = 8;

  @Param({"4096", "65536"})
  int blockSize;

  @Param({"PAGE_CACHE", "CACHED", "LARGE"})
  Setting setting;

  private LruBlockCache cache;
  private BlockFileReader reader;
  private long rows;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    int megabytes = setting == Setting.LARGE ? LARGE_MB : SMALL_MB;
    rows = ExperimentData.rowCount(megabytes);
    if (setting == Setting.CACHED) {
      cache = new LruBlockCache(LruConfig.builder(SMALL_MB * (1L << 20) * 5 / 4).build()).start();
    } else if (setting == Setting.LARGE) {
      cache = new LruBlockCache(LruConfig.builder(LARGE_CACHE_MB * (1L << 20)).build()).start();
    }
    reader = BlockFileReader.open(ExperimentData.rows(megabytes, blockSize), cache, ReadMode.VERIFY_CHECKSUMS);
    byte[] row = new byte[BlockFileLayout.ROW_SIZE];
    for (long id = 0; id < rows; id++) { // warms the page cache, and fills the block cache
      reader.readRow(id, row);
    }
    if (setting == Setting.CACHED && cache.blockCount() != reader.blockCount()) {
      throw new IllegalStateException("CACHED setting holds " + cache.blockCount() + " of " + reader.blockCount()
          + " blocks; the cache is too small");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    reader.close();
    if (cache != null) {
      cache.close();
    }
  }

  /** Per-thread random ids and the row buffer. */
  @State(Scope.Thread)
  public static class ThreadState {
    final SplittableRandom random = new SplittableRandom(42);
    final byte[] row = new byte[BlockFileLayout.ROW_SIZE];
  }

  @Benchmark
  public void randomRowRead(ThreadState t, Blackhole bh) throws IOException {
    long id = t.random.nextLong(rows);
    if (!reader.readRow(id, t.row)) {
      throw new IllegalStateException("row " + id + " missing");
    }
    bh.consume(t.row[0]);
  }
}
