package dev.blockcache.hbase.testing;

import dev.blockcache.hbase.HBaseL2Cache;
import java.io.IOException;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * Caches and configurations the HBase-level tests share: HBase's own configuration (hbase-default.xml loaded, as on a
 * RegionServer) with our L2's keys set the way an operator would.
 *
 * <p>Thread-safety: stateless.
 */
public final class TestCaches {
  private TestCaches() {}

  /** HBase's configuration with an L2 of {@code engine} and {@code megabytes}, plus what local tests need. */
  public static Configuration conf(String engine, int megabytes) {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.bucketcache.ioengine", engine);
    conf.set("hbase.bucketcache.size", Integer.toString(megabytes));
    conf.set("hbase.wal.provider", "filesystem");
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    // The memstore's chunk pool is a RegionServer-wide service a region alone does not start.
    conf.setBoolean("hbase.hregion.memstore.mslab.enabled", false);
    return conf;
  }

  /** Our L2 as HBase's BlockCacheFactory builds it: through the (Configuration) constructor. */
  public static HBaseL2Cache ours(Configuration conf) throws IOException {
    return new HBaseL2Cache(conf);
  }

  /** Waits until {@code cache}'s L2 wrote every block it accepted; fails after 30 s. */
  public static void drain(HBaseL2Cache cache) {
    try {
      if (!cache.l2().awaitWritten(Duration.ofSeconds(30))) {
        throw new AssertionError("L2 blocks still waiting for their writer after 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for the L2 writers", e);
    }
  }
}
