package dev.blockcache.hbase.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.wal.WAL;
import org.apache.hadoop.hbase.wal.WALFactory;

/**
 * The region the benchmarks read: one table, one column family ({@link #FAMILY}: 64 KiB blocks, no encoding, ROW
 * bloom), {@link #rows} rows of one {@value #VALUE_BYTES}-byte cell each, keys {@code row%010d} in order, written
 * through {@code HRegion.put} and flushed into one HFile.
 *
 * <p>The files are written once per size under a data directory ({@code blockcache.regionbench.data}, default
 * {@code target/region-bench-data}) and reused by every fork: a directory is complete when its marker file exists
 * (written last, after an atomic rename). Each fork opens the region over them with a WAL of its own in a scratch
 * directory and hands it the block cache under test, as a RegionServer's {@code HRegion.setBlockCache} does.
 *
 * <p>Thread-safety: {@link #prepare} and {@link #open} belong to one thread (a trial's setup).
 */
final class RegionDataset {
  static final byte[] FAMILY = Bytes.toBytes("f");
  static final byte[] QUALIFIER = Bytes.toBytes("q");
  /** Bytes of each cell's value: about 120 rows per 64 KiB block, so that a block (64 KiB plus at most one row, header
   * and checksums) fits the 66,560-byte bucket size of both caches. */
  static final int VALUE_BYTES = 500;
  /** HFile block size: the RegionServer's default, the size the issue measures. */
  static final int BLOCK_SIZE = 64 * 1024;
  /** Bytes one row takes in an HFile: the value, key, family, qualifier and KeyValue framing. */
  static final int ROW_BYTES = VALUE_BYTES + 44;
  private static final TableName TABLE = TableName.valueOf("regionbench");
  /** A fixed region id: the region's encoded name, so its directory, is the same in every fork. */
  private static final long REGION_ID = 1L;
  private static final String COMPLETE = "COMPLETE";

  private final Path dir;
  private final long rows;

  private RegionDataset(Path dir, long rows) {
    this.dir = dir;
    this.rows = rows;
  }

  /** Rows of the dataset. */
  long rows() {
    return rows;
  }

  /** The key of row {@code id}. */
  static byte[] rowKey(long id) {
    return Bytes.toBytes(String.format("row%010d", id));
  }

  /** The dataset of {@code megabytes} of rows, written now unless a complete copy is on disk. */
  static RegionDataset prepare(int megabytes) throws IOException {
    long rows = (long) megabytes * (1L << 20) / ROW_BYTES;
    Path base = Path.of(System.getProperty("blockcache.regionbench.data", "target/region-bench-data"))
        .toAbsolutePath();
    Path dir = base.resolve(megabytes + "mb");
    if (!Files.exists(dir.resolve(COMPLETE))) {
      Path partial = base.resolve(megabytes + "mb.partial");
      deleteTree(partial);
      deleteTree(dir);
      Files.createDirectories(partial);
      write(partial, rows);
      Files.writeString(partial.resolve(COMPLETE), rows + " rows\n");
      Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
    }
    return new RegionDataset(dir, rows);
  }

  private static void write(Path root, long rows) throws IOException {
    Path wals = Files.createTempDirectory("regionbench-wal");
    Configuration conf = conf(root, wals);
    WALFactory walFactory = new WALFactory(conf, "writer");
    try {
      HRegion region = HRegion.createHRegion(info(), CommonFSUtils.getRootDir(conf), conf, table(),
          walFactory.getWAL(info()), true);
      try {
        SplittableRandom random = new SplittableRandom(rows);
        byte[] value = new byte[VALUE_BYTES];
        for (long id = 0; id < rows; id++) {
          random.nextBytes(value);
          Put put = new Put(rowKey(id)).addColumn(FAMILY, QUALIFIER, value.clone());
          put.setDurability(Durability.SKIP_WAL);
          region.put(put);
        }
        region.flush(true);
      } finally {
        region.close();
      }
    } finally {
      walFactory.close();
      deleteTree(wals);
    }
  }

  /**
   * The region over this dataset's files, reading through {@code cache} (which stays the caller's), with a WAL in
   * {@code scratch}. The caller closes it.
   */
  @SuppressWarnings("deprecation") // HBase's own path for a region without a RegionServer: cache set before init
  OpenRegion open(BlockCache cache, Path scratch) throws IOException {
    Configuration conf = conf(dir, scratch);
    WALFactory wals = new WALFactory(conf, "reader");
    try {
      WAL wal = wals.getWAL(info());
      org.apache.hadoop.fs.Path root = CommonFSUtils.getRootDir(conf);
      FileSystem fs = root.getFileSystem(conf);
      HRegion region = HRegion.newHRegion(CommonFSUtils.getTableDir(root, TABLE), wal, fs, conf, info(), table(),
          null);
      region.setBlockCache(cache);
      region.initialize();
      return new OpenRegion(region, wals);
    } catch (IOException | RuntimeException e) {
      wals.close();
      throw e;
    }
  }

  /** An open region and its WAL; closing closes both (the block cache stays its owner's). */
  static final class OpenRegion implements java.io.Closeable {
    private final HRegion region;
    private final WALFactory wals;

    OpenRegion(HRegion region, WALFactory wals) {
      this.region = region;
      this.wals = wals;
    }

    HRegion region() {
      return region;
    }

    @Override
    public void close() throws IOException {
      try {
        region.close();
      } finally {
        wals.close();
      }
    }
  }

  private static Configuration conf(Path root, Path wals) {
    Configuration conf = HBaseConfiguration.create();
    CommonFSUtils.setRootDir(conf, new org.apache.hadoop.fs.Path(root.toUri()));
    conf.set("hbase.wal.dir", wals.toUri().toString());
    conf.set("hbase.wal.provider", "filesystem");
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    // The memstore's chunk pool is a RegionServer-wide service a region alone does not start.
    conf.setBoolean("hbase.hregion.memstore.mslab.enabled", false);
    // One flush at the end writes the whole dataset as one HFile.
    conf.setLong("hbase.hregion.memstore.flush.size", 1L << 30);
    conf.setLong("hbase.hregion.memstore.block.multiplier", 4);
    return conf;
  }

  private static RegionInfo info() {
    return RegionInfoBuilder.newBuilder(TABLE).setRegionId(REGION_ID).build();
  }

  private static TableDescriptor table() {
    return TableDescriptorBuilder.newBuilder(TABLE)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setBlocksize(BLOCK_SIZE)
            .setBloomFilterType(BloomType.ROW).build())
        .build();
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
