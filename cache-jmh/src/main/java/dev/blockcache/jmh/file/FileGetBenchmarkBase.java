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
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * What the file get benchmarks share: 64 MiB of blocks of {@link #blockSize()} bytes in a file under
 * {@code java.io.tmpdir}, written before measurement; uniform keys drawn in advance from a fixed seed into a
 * 2^16-entry array that each thread walks from its own start; {@link #get1Thread} and {@link #get2Threads}. A
 * subclass names its competitors and opens the reader of one.
 *
 * <p>Thread-safety: a JMH state; the reader is shared by the benchmark threads, each walking its own
 * {@link KeyCursor}.
 */
public abstract class FileGetBenchmarkBase extends BenchmarkDefaults {
  /** Bytes of blocks on file: large enough to defeat CPU caches, small enough to stay in the page cache. */
  private static final long DATA_BYTES = 64L << 20;
  private static final int SEQUENCE = 1 << 16;

  private Path dir;
  private FileReader reader;
  private int[] sequence;

  /** The block size of this run (a subclass's {@code @Param}). */
  protected abstract int blockSize();

  /** The reader of this run's competitor over {@code blocks} blocks of {@link #blockSize()} bytes in {@code file}. */
  protected abstract FileReader open(Path file, int blocks) throws IOException;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    int blocks = (int) (DATA_BYTES / blockSize());
    dir = Files.createTempDirectory("file-engine-bench");
    reader = open(dir.resolve("data.bin"), blocks);
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
    return reader.read(sequence[cursor.next(SEQUENCE - 1)]);
  }

  @Benchmark
  @Threads(2)
  public int get2Threads(KeyCursor cursor) {
    return reader.read(sequence[cursor.next(SEQUENCE - 1)]);
  }
}
