package dev.blockcache.jmh.scale;

import dev.blockcache.api.BlockKey;
import java.util.SplittableRandom;

/**
 * The key set of a scale cell: key {@code i} is block {@code i % blocksPerFile} of file {@code i / blocksPerFile},
 * each file {@value #FILE_BYTES} bytes of blocks, as a store file of a region is (HBase splits a region long before its
 * files reach tens of GiB, so a TiB-class cache holds blocks of thousands of files). File names are 32 hex digits,
 * one {@code String} instance per file, as a storage engine that reuses its open file's name passes them; keys are
 * built per lookup.
 *
 * <p>A handful of huge files would put every block in the few index segments of their file groups: segments of
 * hundreds of thousands of entries, whose tables the collector keeps as humongous objects, each rounded up to whole
 * regions. That is a key set no RegionServer produces, so the experiment does not use it.
 *
 * <p>Thread-safety: immutable after construction.
 */
final class ScaleKeys {
  /** Bytes of blocks per file: 1 GiB. */
  static final long FILE_BYTES = 1L << 30;

  private final String[] files;
  private final int blocksPerFile;
  private final int blockSize;

  /** Keys {@code 0 .. maxKeys - 1} of blocks of {@code blockSize} bytes. */
  ScaleKeys(int blockSize, long maxKeys) {
    this.blockSize = blockSize;
    this.blocksPerFile = (int) (FILE_BYTES / blockSize);
    this.files = new String[Math.toIntExact((maxKeys + blocksPerFile - 1) / blocksPerFile)];
    SplittableRandom random = new SplittableRandom(42);
    for (int f = 0; f < files.length; f++) {
      files[f] = String.format("%016x%016x", random.nextLong(), random.nextLong());
    }
  }

  /** Key {@code i}, built now as a reader builds it per lookup. */
  BlockKey key(long i) {
    return BlockKey.of(files[(int) (i / blocksPerFile)], (i % blocksPerFile) * blockSize);
  }

  /** Files of the key set. */
  int files() {
    return files.length;
  }
}
