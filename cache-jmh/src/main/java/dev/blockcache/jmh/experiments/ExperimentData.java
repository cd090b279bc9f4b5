package dev.blockcache.jmh.experiments;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.jmh.L2Drain;
import dev.blockcache.minidb.BlockFileLayout;
import dev.blockcache.minidb.BlockFileReader;
import dev.blockcache.minidb.BlockFileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The dataset files of the experiments: mini block files under {@code target/experiment-data} of the benchmark's
 * working directory (cache-jmh when run through {@code -Pbench}), written once and reused by later forks.
 *
 * <p>Thread-safety: call from a JMH {@code @Setup} (one thread); concurrent forks of one run do not exist.
 */
final class ExperimentData {
  /** Where dataset files live: under target/ so that {@code mvn clean} removes them. */
  static final Path DIR = Path.of("target", "experiment-data");

  private ExperimentData() {}

  /** The file of {@code megabytes} MiB of 1 KB rows (ids 0..n-1) in blocks of {@code blockSize}, written if missing. */
  static Path rows(int megabytes, int blockSize) throws IOException {
    Files.createDirectories(DIR);
    Path file = DIR.resolve("rows-" + megabytes + "m-" + blockSize + ".blk");
    if (!Files.exists(file)) {
      Path tmp = DIR.resolve(file.getFileName() + ".tmp");
      BlockFileWriter.write(tmp, rowCount(megabytes), blockSize, 1);
      Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    return file;
  }

  /** Rows in a dataset of {@code megabytes} MiB. */
  static long rowCount(int megabytes) {
    return (long) megabytes * (1 << 20) / BlockFileLayout.ROW_SIZE;
  }

  /**
   * Reads one row of every data block of {@code reader}, so that each block misses once and is written into
   * {@code l2} at once; fails unless the L2 then holds every block.
   */
  static void loadAll(BlockFileReader reader, BucketCache l2) throws IOException {
    byte[] row = new byte[BlockFileLayout.ROW_SIZE];
    long rowsPerBlock = reader.blockSize() / BlockFileLayout.ROW_SIZE;
    for (long id = 0; id < reader.rowCount(); id += rowsPerBlock) {
      reader.readRow(id, row); // a miss: read from the file and queued for the L2
      L2Drain.await(l2); // the block is written before the next one, so no queue ever overflows
    }
    if (l2.blockCount() != reader.blockCount()) {
      throw new IllegalStateException("L2 holds " + l2.blockCount() + " of " + reader.blockCount() + " blocks");
    }
  }
}
