package dev.blockcache.hbase.testing;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.wal.WAL;
import org.apache.hadoop.hbase.wal.WALFactory;

/**
 * One HBase region on the local filesystem, with a WAL, whose stores read through a given {@link BlockCache}: what a
 * RegionServer does for each region it hosts, without the server. One column family ({@link #FAMILY}: 8 KiB blocks,
 * FAST_DIFF, ROW bloom). Reads render cells as text (row, qualifier, timestamp, type, value) so that runs over
 * different caches compare with {@code equals}.
 *
 * <p>Thread-safety: the region is safe for concurrent puts, gets and scans (HBase's contract); open, close and
 * reopen belong to one thread.
 */
public final class RegionHarness implements Closeable {
  public static final byte[] FAMILY = Bytes.toBytes("f");
  private static final TableName TABLE = TableName.valueOf("blockcache_it");

  private final Configuration conf;
  private final Path root;
  private final BlockCache cache;
  private final WALFactory wals;
  private final RegionInfo info;
  private final TableDescriptor table;
  private HRegion region;

  /** Creates the region under {@code root}, reading through {@code cache} (which the caller owns). */
  public RegionHarness(Configuration conf, java.nio.file.Path root, BlockCache cache) throws IOException {
    this.conf = new Configuration(conf);
    this.root = new Path(root.toUri());
    CommonFSUtils.setRootDir(this.conf, this.root);
    this.cache = cache;
    this.wals = new WALFactory(this.conf, "blockcache-" + root.getFileName());
    this.table = TableDescriptorBuilder.newBuilder(TABLE)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setBlocksize(8 * 1024)
            .setDataBlockEncoding(DataBlockEncoding.FAST_DIFF).setBloomFilterType(BloomType.ROW).build())
        .build();
    this.info = RegionInfoBuilder.newBuilder(TABLE).build();
    HRegion created = HRegion.createHRegion(info, this.root, this.conf, table, wal(), false);
    this.region = initialize(created);
  }

  private WAL wal() throws IOException {
    return wals.getWAL(info);
  }

  @SuppressWarnings("deprecation") // HBase's test path: a region built without a RegionServer, cache set first
  private HRegion initialize(HRegion r) throws IOException {
    r.setBlockCache(cache);
    r.initialize();
    return r;
  }

  public HRegion region() {
    return region;
  }

  /** Closes the region (flushing the memstore) and opens it again over the same files, WAL and cache. */
  public void reopen() throws IOException {
    region.close();
    FileSystem fs = root.getFileSystem(conf);
    region = initialize(HRegion.newHRegion(CommonFSUtils.getTableDir(root, TABLE), wal(), fs, conf, info, table,
        null));
  }

  /** The names of the store's current HFiles. */
  public Set<String> storeFileNames() {
    Set<String> names = new TreeSet<>();
    for (HStoreFile f : store().getStorefiles()) {
      names.add(f.getPath().getName());
    }
    return names;
  }

  /** Major-compacts the store and archives the compacted-away files as HBase's discharger chore does. */
  public void majorCompact() throws IOException {
    region.compact(true);
    store().closeAndArchiveCompactedFiles();
  }

  /** A minor compaction of the store (HBase picks the files), then archiving as for a major one. */
  public void minorCompact() throws IOException {
    region.compact(false);
    store().closeAndArchiveCompactedFiles();
  }

  private HStore store() {
    return region.getStore(FAMILY);
  }

  /** The row as text, "" when absent. */
  public String get(byte[] row) throws IOException {
    Result r = region.get(new Get(row));
    return render(r.rawCells() == null ? List.of() : List.of(r.rawCells()));
  }

  /** Every cell of the region in scan order, as text. */
  public String scan() throws IOException {
    return scan(new Scan());
  }

  /** The cells {@code scan} returns, as text. */
  public String scan(Scan scan) throws IOException {
    StringBuilder out = new StringBuilder();
    try (RegionScanner scanner = region.getScanner(scan)) {
      List<Cell> cells = new ArrayList<>();
      boolean more;
      do {
        cells.clear();
        more = scanner.next(cells);
        out.append(render(cells));
      } while (more);
    }
    return out.toString();
  }

  public static String render(List<Cell> cells) {
    StringBuilder out = new StringBuilder();
    for (Cell c : cells) {
      out.append(new String(CellUtil.cloneRow(c), StandardCharsets.UTF_8)).append('/')
          .append(new String(CellUtil.cloneQualifier(c), StandardCharsets.UTF_8)).append('/')
          .append(c.getTimestamp()).append('/').append(c.getType()).append('=')
          .append(Bytes.toHex(CellUtil.cloneValue(c))).append('\n');
    }
    return out.toString();
  }

  /** Closes the region and the WAL; the cache stays the caller's. */
  @Override
  public void close() throws IOException {
    try {
      if (region != null && !region.isClosed()) {
        region.close();
      }
    } finally {
      wals.close();
    }
  }
}
