package dev.blockcache.jmh.file;

import java.io.IOException;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Param;

/**
 * File-engine get-hit throughput, page cache hot, against raw {@code FileChannel.read} of the same size and HBase's
 * own {@code BucketCache} on {@code file:}, in the same run. Workload, keys and threads: {@link FileGetBenchmarkBase}.
 *
 * <ul>
 *   <li>{@code OURS}: our {@code BucketCache} on {@code file:} (a get hit: positional read of header + block into a
 *       pooled direct buffer, key and CRC32C checked, then released); see {@link CacheFileReader}.</li>
 *   <li>{@code RAW_FILECHANNEL}: one positional {@code FileChannel.read} of the block into a reused per-thread direct
 *       buffer, the floor; see {@link RawFileReader}.</li>
 *   <li>{@code RAW_SLOT_READ}: the same, but of the bytes our get reads (header + block) at the stride of the bucket
 *       items that hold them: what the slot layout alone costs against the raw read, and what our get adds on top
 *       of its own read (lookup, checks, buffer pool).</li>
 *   <li>{@code HBASE_BUCKET}: HBase 2.6's {@code BucketCache} on {@code file:}; see {@link HBaseFileReader}.</li>
 * </ul>
 * O_DIRECT, which HBase's file engine does not have, is {@link FileEngineDirectIoBenchmark}.
 *
 * <p>Run: {@code ./mvnw -B -Pbench verify -pl cache-jmh -am -DskipTests -Dbench.include=FileEngineGetBenchmark}
 * (quick mode; {@code -Dbench.prof=gc}, the default, adds bytes allocated per get); {@code -Dbench.smoke=true} only
 * proves it runs. {@code -Dbench.params=checksum=false} shows what CRC32C costs per get.
 *
 * <p>Thread-safety: as {@link FileGetBenchmarkBase}.
 */
public class FileEngineGetBenchmark extends FileGetBenchmarkBase {
  /** What reads the blocks. */
  public enum Competitor { OURS, RAW_FILECHANNEL, RAW_SLOT_READ, HBASE_BUCKET }

  @Param({"OURS", "RAW_FILECHANNEL", "RAW_SLOT_READ", "HBASE_BUCKET"})
  public Competitor competitor;

  /** {@code hbase.bucketcache.checksum.verify} for {@code OURS} (the others ignore it). */
  @Param({"true"})
  public boolean checksum;

  @Param({"4096", "65536"})
  public int blockSize;

  @Override
  protected int blockSize() {
    return blockSize;
  }

  @Override
  protected FileReader open(Path file, int blocks) throws IOException {
    return switch (competitor) {
      case OURS -> new CacheFileReader(file, blocks, blockSize, false, checksum);
      case RAW_FILECHANNEL -> RawFileReader.aligned(file, blocks, blockSize, false);
      case RAW_SLOT_READ -> RawFileReader.slotShaped(file, blocks, blockSize, CacheFileReader.headerLength(),
          CacheFileReader.itemSize(blockSize));
      case HBASE_BUCKET -> new HBaseFileReader(file, blocks, blockSize);
    };
  }
}
