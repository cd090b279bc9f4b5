package dev.blockcache.jmh.experiments;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.engine.ChannelIo;
import dev.blockcache.bucket.engine.FileEngineOptions;
import dev.blockcache.bucket.engine.IoEngineRegistry;
import dev.blockcache.bucket.engine.PageCache;
import dev.blockcache.jmh.BenchmarkDefaults;
import dev.blockcache.jmh.device.DeviceModelIo;
import dev.blockcache.minidb.BlockFileLayout;
import dev.blockcache.minidb.BlockFileReader;
import dev.blockcache.minidb.BlockFileReader.ReadMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Experiment 3, IO engines × devices (Intel's file-mode BucketCache brief, seeds/intel-bucketcache-file-mode.txt):
 * single-row gets through the mini storage engine from an L2 BucketCache that holds the whole dataset, on a
 * {@code file:} engine over modelled devices, with memory engines and the real disk as references, at 10, 25 and 50
 * threads (one method per count).
 *
 * <p>Workload: a 16 MiB mini block file of 1 KB rows in 4 KiB data blocks (4,096 blocks), every block pre-loaded into
 * a 32 MiB L2 (100% hits, as the brief loaded all data into the BucketCache first); each operation reads one
 * uniformly random row (bloom → index → L2 get → row). Engines ({@link Engine}):
 * <ul>
 *   <li>{@code HDD}, {@code SATA_SSD}, {@code NVME}: {@code file:} whose reads go through a
 *       {@link DeviceModelIo}; every L2 get reads its slot from the file engine (the L2 has no RAM tier for written blocks), and the
 *       model books that read on the modelled device and holds it until the modelled completion, so every get pays
 *       the device. The real read comes from the page cache.</li>
 *   <li>{@code FILE_DIRECT}: {@code file:} with {@code hbase.bucketcache.file.directio=true}: the machine's real disk,
 *       no page cache.</li>
 *   <li>{@code HEAP}, {@code OFFHEAP}: memory engines, the ceiling the read path itself allows.</li>
 * </ul>
 * 4 KiB blocks (the brief used HBase's 64 KiB default) keep the CPU cost of a get small, so that on a few cores the
 * device, not the checksum of a 64 KiB block, is what the SSD models are limited by.
 *
 * <p>Published (2015, HBase 0.98, 32 logical cores, 500 GB in file mode): 50 threads PCIe NVMe 60,380 ops/s, SATA SSD
 * 5,339, HDD 324; 25 threads 41,552 / 5,117 / 293; 10 threads 21,641 / 4,705 / 267; NVMe 4–11× SATA SSD, 81–189×
 * HDD. The report computes NVMe/SATA and NVMe/HDD at each thread count from the measured figures. Above the machine's
 * core count a run measures contention, not parallelism; the models' waits overlap, the CPU work does not.
 *
 * <p>Command: {@code ./mvnw -B -Pbench verify -pl cache-jmh -am -DskipTests -Dbench.include=IoEngineDeviceExperiment}
 * (quick; {@code -Dbench.full=true} for full, {@code -Dbench.smoke=true} to check it runs).
 *
 * <p>Forks run with a {@value dev.blockcache.jmh.BenchmarkDefaults#SMALL_HEAP} heap (no HBase class is loaded, so
 * none of the base's {@code --add-opens} flags is needed).
 *
 * <p>Thread-safety: the cache and reader are shared by the benchmark threads and are thread-safe.
 */
@Fork(value = 2, jvmArgsAppend = {
    "-Xms" + BenchmarkDefaults.SMALL_HEAP, "-Xmx" + BenchmarkDefaults.SMALL_HEAP, "-XX:+AlwaysPreTouch",
    "-XX:+UseTransparentHugePages"})
@State(Scope.Benchmark)
public class IoEngineDeviceExperiment extends BenchmarkDefaults {
  /**
   * Dataset in MiB. The models' service times do not depend on it; it is kept small because loading it through
   * O_DIRECT (a read-modify-write of the edge pages of every slot) costs a device write per block.
   */
  static final int DATASET_MB = 16;
  /** Data block size: see the class notes. */
  static final int BLOCK_SIZE = 4096;
  /** L2 capacity in MiB: the dataset plus room for block headers and the allocator's size classes. */
  static final int L2_MB = 32;

  /** The L2's engine and, for {@code file:}, the device under it. */
  public enum Engine {
    HEAP("heap", "none", false),
    OFFHEAP("offheap", "none", false),
    FILE_DIRECT("file", "none", true),
    HDD("file", "hdd", false),
    SATA_SSD("file", "sata-ssd", false),
    NVME("file", "nvme", false);

    final String scheme;
    final String deviceModel;
    final boolean directIo;

    Engine(String scheme, String deviceModel, boolean directIo) {
      this.scheme = scheme;
      this.deviceModel = deviceModel;
      this.directIo = directIo;
    }
  }

  @Param({"HEAP", "OFFHEAP", "FILE_DIRECT", "HDD", "SATA_SSD", "NVME"})
  Engine engine;

  private Path cacheFile;
  private BucketCache cache;
  private BlockFileReader reader;
  private long rows;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    rows = ExperimentData.rowCount(DATASET_MB);
    String spec = engine.scheme;
    if (spec.equals("file")) {
      Files.createDirectories(ExperimentData.DIR);
      cacheFile = ExperimentData.DIR.resolve("l2-" + engine.name().toLowerCase(java.util.Locale.ROOT) + ".cache")
          .toAbsolutePath();
      spec = "file:" + cacheFile;
    }
    FileEngineOptions files = new FileEngineOptions(PageCache.directIo(engine.directIo),
        DeviceModelIo.wrap(ChannelIo.PLAIN, engine.deviceModel));
    cache = BucketCache.create(BucketCacheConfig.builder(spec, L2_MB * (1L << 20)).fileDirectIo(engine.directIo).build(),
        IoEngineRegistry.withBuiltins(files));
    reader = BlockFileReader.open(ExperimentData.rows(DATASET_MB, BLOCK_SIZE), cache, ReadMode.VERIFY_CHECKSUMS);
    ExperimentData.loadAll(reader, cache);
  }

  /** Fails the run if an L2 hit of a {@code file:} engine did not read the engine, i.e. bypassed the device. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    long hits = cache.stats().hitCount();
    long engineReads = cache.metrics().engine().reads();
    if (cacheFile != null && engineReads < hits) {
      throw new IllegalStateException(engine + ": " + hits + " L2 hits but " + engineReads + " engine reads");
    }
    reader.close();
    cache.close();
    if (cacheFile != null) {
      Files.deleteIfExists(cacheFile);
    }
  }

  /** Per-thread random ids and the row buffer. */
  @State(Scope.Thread)
  public static class ThreadState {
    final SplittableRandom random = new SplittableRandom();
    final byte[] row = new byte[BlockFileLayout.ROW_SIZE];
  }

  private void get(ThreadState t, Blackhole bh) throws IOException {
    long id = t.random.nextLong(rows);
    if (!reader.readRow(id, t.row)) {
      throw new IllegalStateException("row " + id + " missing");
    }
    bh.consume(t.row[8]);
  }

  @Benchmark @Threads(10)
  public void threads10(ThreadState t, Blackhole bh) throws IOException {
    get(t, bh);
  }

  @Benchmark @Threads(25)
  public void threads25(ThreadState t, Blackhole bh) throws IOException {
    get(t, bh);
  }

  @Benchmark @Threads(50)
  public void threads50(ThreadState t, Blackhole bh) throws IOException {
    get(t, bh);
  }
}
