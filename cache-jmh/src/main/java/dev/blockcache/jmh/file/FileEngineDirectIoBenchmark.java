package dev.blockcache.jmh.file;

import java.io.IOException;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Param;

/**
 * File-engine get-hit throughput with O_DIRECT (every read goes to the device, none to the page cache): our
 * {@code file:} engine with {@code hbase.bucketcache.file.directio=true} against raw {@code FileChannel.read} opened
 * with {@code ExtendedOpenOption.DIRECT}, same size, same threads, same run. Workload, keys and threads:
 * {@link FileGetBenchmarkBase}; 4 KiB blocks only (O_DIRECT reads cost the device's latency, which the block size
 * barely moves; 64 KiB would add minutes to the quick suite for no new shape). HBase's file engine has no O_DIRECT,
 * so it is not a competitor here.
 *
 * <p>Run: {@code ./mvnw -B -Pbench verify -pl cache-jmh -am -DskipTests -Dbench.include=FileEngineDirectIoBenchmark}.
 *
 * <p>Thread-safety: as {@link FileGetBenchmarkBase}.
 */
public class FileEngineDirectIoBenchmark extends FileGetBenchmarkBase {
  /** What reads the blocks. */
  public enum Competitor { OURS, RAW_FILECHANNEL }

  @Param({"OURS", "RAW_FILECHANNEL"})
  public Competitor competitor;

  @Param({"4096"})
  public int blockSize;

  @Override
  protected int blockSize() {
    return blockSize;
  }

  @Override
  protected FileReader open(Path file, int blocks) throws IOException {
    return competitor == Competitor.OURS
        ? new CacheFileReader(file, blocks, blockSize, true, true)
        : RawFileReader.aligned(file, blocks, blockSize, true);
  }
}
