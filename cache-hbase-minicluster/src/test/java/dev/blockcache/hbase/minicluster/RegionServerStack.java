package dev.blockcache.hbase.minicluster;

import dev.blockcache.hbase.BlockCacheRegionServer;
import dev.blockcache.hbase.HBaseL2Cache;
import org.apache.hadoop.conf.Configuration;

/**
 * The three ways a RegionServer started from hbase-site.xml can hold its data blocks off heap, as the keys an
 * operator sets: HBase's own BucketCache, ours through HBase's external-cache hook (which wraps it in HBase's
 * inclusive combined cache), and ours placed exclusively ({@link BlockCacheRegionServer}). Each sets the same L2 engine
 * and size.
 *
 * <p>Thread-safety: immutable.
 */
public enum RegionServerStack {
  /** HBase's BucketCache in HBase's {@code CombinedBlockCache}: the baseline. */
  HBASE_BUCKET {
    @Override
    public void configure(Configuration conf) {
      // hbase.bucketcache.ioengine alone: HBase's BlockCacheFactory builds its own L2.
    }
  },
  /** Ours behind {@code hbase.blockcache.external.class}: HBase's {@code InclusiveCombinedBlockCache}. */
  OURS_HOOK {
    @Override
    public void configure(Configuration conf) {
      conf.setBoolean("hbase.blockcache.use.external", true);
      conf.set("hbase.blockcache.external.class", HBaseL2Cache.class.getName());
    }
  },
  /** Ours placed by {@code hbase.regionserver.impl}: HBase's non-inclusive {@code CombinedBlockCache}. */
  OURS_EXCLUSIVE {
    @Override
    public void configure(Configuration conf) {
      conf.set("hbase.regionserver.impl", BlockCacheRegionServer.class.getName());
    }
  };

  /** Adds this stack's keys to {@code conf}, which already names the L2's engine and size. */
  public abstract void configure(Configuration conf);
}
