package dev.blockcache.jmh.scale;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.EngineGeometry;
import dev.blockcache.bucket.engine.FileIoEngine;
import dev.blockcache.bucket.format.BlockHeader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One cell of the scale experiment: an L2 of {@link #blocks} blocks of {@link #blockSize} bytes on a
 * {@link Engine}, its files under {@link #dir}; how large it is and how every child JVM of the cell builds it.
 *
 * <p>Keys are {@link ScaleKeys} (files of 1 GiB, 32-character names, built per lookup); keys
 * {@code 0 .. blocks - 1} fill the cache, later keys evict. The evict-by-file probe uses a file of its
 * own ({@link #EVICT_FILE}).
 *
 * <p>Thread-safety: immutable.
 *
 * @param blocks blocks the cache is filled with
 * @param blockSize bytes per block
 * @param engine where the slots live
 * @param dir the directory of the cell's files (checkpoint, record or cache file)
 */
record ScaleCell(int blocks, int blockSize, Engine engine, Path dir) {
  /** The slot store of a cell. */
  enum Engine {
    /** {@link HeaderSlotEngine}: headers only, zeros for block bytes (a measuring device). */
    HEADERS,
    /** The library's {@code file:} engine on a real file of the whole capacity. */
    FILE
  }

  /** Blocks of the file whose eviction is timed: the figure. */
  static final int EVICT_FILE_BLOCKS = 100_000;
  /** The file of the evict-by-file probe: 32 characters, as the key set's names. */
  static final String EVICT_FILE = "e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0";
  /**
   * Share of the capacity the filled cache and the evict-file probe take: nearly full, so that the phase of inserts
   * that evict reaches eviction after about 1% of the blocks (the tinylfu policy evicts when no slot is free).
   */
  private static final double FILL = 0.99;

  /** Bytes a block takes in its slot: header with a 32-byte name, then the block. */
  int stored() {
    return BlockHeader.headerLength(EVICT_FILE.length()) + blockSize;
  }

  /** Capacity in bytes: whole buckets of HBase's default sizes, the fill plus the probe file at {@value #FILL}. */
  long capacity() {
    int[] sizes = BucketCacheConfig.defaultBucketSizes();
    long bucket = 4L * sizes[sizes.length - 1];
    int item = 0;
    for (int s : sizes) {
      if (s >= stored()) {
        item = s;
        break;
      }
    }
    long perBucket = bucket / item;
    long buckets = (long) Math.ceil((blocks + (double) EVICT_FILE_BLOCKS) / perBucket / FILL);
    return buckets * bucket;
  }

  /** The cache's config, checkpoints every {@code persistIntervalMs}. */
  BucketCacheConfig config(long persistIntervalMs) {
    String spec = engine == Engine.FILE ? FileIoEngine.SCHEME + ":" + dir.resolve("cache.bin")
        : HeaderSlotEngine.SCHEME + ":" + dir.resolve("headers.bin");
    return BucketCacheConfig.builder(spec, capacity())
        .writerThreads(3)
        .writerQueueLength(64)
        .queueAdditionWaitTimeMs(60_000)
        .persistentPath(dir.resolve("index").toString())
        .persistIntervalMs(persistIntervalMs)
        .build();
  }

  /**
   * A started cache of this cell and its engine if it is a {@link HeaderSlotEngine} (else null), restored from the
   * cell's checkpoint if one is there; the caller closes the cache, which closes the engine.
   */
  Opened open(long persistIntervalMs) throws IOException {
    BucketCacheConfig config = config(persistIntervalMs);
    if (engine == Engine.FILE) {
      return new Opened(BucketCache.create(config), null);
    }
    HeaderSlotEngine headers = HeaderSlotEngine.open(dir.resolve("headers.bin"), EngineGeometry.capacity(config),
        EngineGeometry.segmentSize(config), stored());
    return new Opened(BucketCache.create(config, headers), headers);
  }

  /** A cache and, when it runs on one, its {@link HeaderSlotEngine} (which counts checkpoints). */
  record Opened(BucketCache cache, HeaderSlotEngine headers) {
    /** Checkpoints begun so far (each syncs the engine first), or -1 when the engine does not count them. */
    long checkpoints() {
      return headers == null ? -1 : headers.syncs();
    }
  }

  /** Bytes of disk the cell's slot store takes at most. */
  long diskBytes() {
    return engine == Engine.FILE ? capacity() : HeaderSlotEngine.recordBytes(capacity(), stored());
  }

  /**
   * The cell's key set: the fill, then as many keys again and 64M more for the phases that insert new blocks (each
   * bounded by time, far below that).
   */
  ScaleKeys keys() {
    return new ScaleKeys(blockSize, 2L * blocks + (64L << 20));
  }

  /** The arguments a child JVM rebuilds this cell from. */
  String[] args() {
    return new String[] {Integer.toString(blocks), Integer.toString(blockSize), engine.name(), dir.toString()};
  }

  /** The cell from {@code args[from ..]} as {@link #args()} wrote them. */
  static ScaleCell parse(String[] args, int from) {
    return new ScaleCell(Integer.parseInt(args[from]), Integer.parseInt(args[from + 1]),
        Engine.valueOf(args[from + 2]), Path.of(args[from + 3]));
  }

  /** A short name: "64M x 64 KiB (headers)". */
  String label() {
    String size = blocks % (1 << 20) == 0 ? blocks / (1 << 20) + "M" : blocks / 1024 + "K";
    return size + " x " + blockSize / 1024 + " KiB (" + engine.name().toLowerCase(Locale.ROOT) + ")";
  }
}
