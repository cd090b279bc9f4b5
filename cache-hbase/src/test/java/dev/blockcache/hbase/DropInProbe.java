package dev.blockcache.hbase;

import java.io.File;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.regionserver.HRegionServer;

/**
 * What a RegionServer does with the drop-in jar, in a JVM of its own whose class path is HBase's jars plus the jar
 * (started by {@link DropInJarIT}; it references HBase's types only, never ours, so it runs against the relocated
 * jar): loads the exclusive placement's RegionServer class; builds the block cache through {@code BlockCacheFactory} with the two external-cache keys, writes an HFile
 * caching its blocks on write (HBase sends data blocks to the L2 only, index blocks to its L1), reads every cell
 * back and prints what served it.
 */
public final class DropInProbe {
  private DropInProbe() {}

  public static void main(String[] args) throws Exception {
    // The exclusive placement's RegionServer class, loaded from the jar and linked against HBase's HRegionServer.
    Class<?> rs = Class.forName("dev.blockcache.hbase.BlockCacheRegionServer");
    if (HRegionServer.class.isAssignableFrom(rs) && rs.getConstructor(Configuration.class) != null) {
      System.out.println("regionserver " + rs.getName());
    }
    Configuration conf = HBaseConfiguration.create();
    conf.setBoolean("hbase.blockcache.use.external", true);
    conf.set("hbase.blockcache.external.class", "dev.blockcache.hbase.HBaseL2Cache");
    conf.set("hbase.bucketcache.ioengine", "offheap");
    conf.set("hbase.bucketcache.size", "16");
    conf.setBoolean(CacheConfig.CACHE_BLOCKS_ON_WRITE_KEY, true);
    BlockCache cache = BlockCacheFactory.createBlockCache(conf);
    System.out.println("cache " + cache.getClass().getName());
    BlockCache[] tiers = cache.getBlockCaches();
    if (tiers == null || tiers.length != 2) {
      return;
    }
    System.out.println("l2 " + tiers[1].getClass().getName());
    FileSystem fs = FileSystem.getLocal(conf);
    Path file = new Path(new File(args[0], "probe-hfile").toURI());
    CacheConfig cacheConf = new CacheConfig(conf, cache);
    HFile.Writer writer = HFile.getWriterFactory(conf, cacheConf).withPath(fs, file)
        .withFileContext(new HFileContextBuilder().withBlockSize(4096).build()).create();
    int rows = 2000;
    for (int i = 0; i < rows; i++) {
      byte[] row = String.format("row-%06d", i).getBytes(StandardCharsets.UTF_8);
      writer.append(new KeyValue(row, new byte[] {'f'}, new byte[] {'q'}, 1L, row));
    }
    writer.close();
    // Blocks still queued for the L2's writers are served from its RAM cache: hits either way.
    int cells = 0;
    HFile.Reader reader = HFile.createReader(fs, file, cacheConf, true, conf);
    try (HFileScanner scanner = reader.getScanner(conf, true, true)) {
      scanner.seekTo();
      do {
        Cell c = scanner.getCell();
        if (c.getValueLength() == c.getRowLength()) {
          cells++;
        }
      } while (scanner.next());
    }
    reader.close(true);
    System.out.println("cells " + cells);
    System.out.println("l2hits " + tiers[1].getStats().getHitCount());
    cache.shutdown();
  }
}
