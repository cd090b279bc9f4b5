package dev.blockcache.jmh.file;

import dev.blockcache.jmh.BenchmarkDefaults;
import dev.blockcache.jmh.workload.KeyCursor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * File-engine get-hit throughput against raw {@code FileChannel.read} of the same size, in the same run.
 *
 * <ul>
 *   <li><b>Workload</b>: 64 MiB of blocks of {@link #blockSize} bytes (4 KiB: 16,384 blocks; 64 KiB: 1,024) in a
 *       file under {@code java.io.tmpdir}, written before measurement; without O_DIRECT the file is hot in the page
 *       cache, with O_DIRECT every read goes to the device.</li>
 *   <li><b>Keys</b>: uniform over the blocks, drawn in advance from a fixed seed into a 2^16-entry array that each
 *       thread walks from its own start.</li>
 *   <li><b>Competitors</b> ({@link #target}): {@code CACHE} = our {@code BucketCache} on {@code file:} (a get hit:
 *       positional read of header + block into a pooled direct buffer, key and CRC32C checked, then released);
 *       {@code RAW} = one positional {@code FileChannel.read} of the block into a reused per-thread direct buffer.</li>
 *   <li><b>O_DIRECT</b> ({@link #directIo}): {@code hbase.bucketcache.file.directio} for the cache, the
 *       {@code DIRECT} open option for the raw reader.</li>
 *   <li><b>Threads</b>: {@link #get1Thread}, {@link #get2Threads}.</li>
 * </ul>
 *
 * <p>Run: {@code ./mvnw -B -Pbench verify -Dbench.include=FileEngineGetBenchmark} (quick mode), add
 * {@code -Dbench.prof=gc} for bytes allocated per get; {@code -Dbench.smoke=true} only proves it runs.
 *
 * <p>Thread-safety: a JMH state; the reader is shared by the benchmark threads, each walking its own {@link KeyCursor}.
 */
public class FileEngineGetBenchmark extends BenchmarkDefaults {
  /** Bytes of blocks on file: large enough to defeat CPU caches, small enough to stay in this VM's page cache. */
  private static final long DATA_BYTES = 64L << 20;
  private static final int SEQUENCE = 1 << 16;

  /** What reads the blocks. */
  public enum Target { CACHE, RAW }

  @Param({"CACHE", "RAW"})
  public Target target;

  @Param({"4096", "65536"})
  public int blockSize;

  @Param({"false", "true"})
  public boolean directIo;

  /**
   * {@code hbase.bucketcache.checksum.verify} for {@code CACHE} (RAW ignores it): true by default; run with
   * {@code -Dbench.params=checksum=false} to see what CRC32C costs per get.
   */
  @Param({"true"})
  public boolean checksum;

  private Path dir;
  private FileReader reader;
  private int[] sequence;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    int blocks = (int) (DATA_BYTES / blockSize);
    dir = Files.createTempDirectory("file-engine-bench");
    Path file = dir.resolve("data.bin");
    reader = target == Target.CACHE
        ? new CacheFileReader(file, blocks, blockSize, directIo, checksum)
        : new RawFileReader(file, blocks, blockSize, directIo);
    SplittableRandom random = new SplittableRandom(0x5EED_F11EL);
    sequence = new int[SEQUENCE];
    for (int i = 0; i < SEQUENCE; i++) {
      sequence[i] = random.nextInt(blocks);
    }
    for (int i = 0; i < blocks; i++) {
      reader.read(i);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    reader.close();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  @Benchmark
  @Threads(1)
  public int get1Thread(KeyCursor cursor) {
    return reader.read(sequence[cursor.next((SEQUENCE - 1))]);
  }

  @Benchmark
  @Threads(2)
  public int get2Threads(KeyCursor cursor) {
    return reader.read(sequence[cursor.next((SEQUENCE - 1))]);
  }
}
