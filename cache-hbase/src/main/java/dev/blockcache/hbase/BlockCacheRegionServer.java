package dev.blockcache.hbase;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;

/**
 * HBase's RegionServer with our L2 placed exclusively ({@link ExclusivePlacement}): what an operator names with
 * {@code hbase.regionserver.impl} in hbase-site.xml, next to the {@code hbase.bucketcache.*} keys that would configure
 * HBase's own BucketCache. HBase builds its L1; data blocks live in our L2 only; the server's shutdown closes our L2.
 * When a region leaves the server, the blocks of its files that no online region reads are dropped from our L2.
 * Everything else is HBase's {@link HRegionServer}.
 *
 * <p>Thread-safety: as {@link HRegionServer}; the placement happens in the constructor.
 */
public class BlockCacheRegionServer extends HRegionServer {
  private final Optional<HBaseL2Cache> l2;

  /**
   * The constructor HBase's RegionServer command line (and its mini cluster) calls: HBase builds the server on
   * {@code conf} without the L2 keys, then our L2 is built from {@code conf} and placed.
   *
   * @throws IOException when HBase's server or our L2's engine cannot be set up
   */
  public BlockCacheRegionServer(Configuration conf) throws IOException {
    this(conf, ExclusivePlacement.forHBase(conf));
  }

  private BlockCacheRegionServer(Configuration site, Configuration forHBase) throws IOException {
    super(forHBase);
    this.l2 = ExclusivePlacement.install(this, site);
  }

  /**
   * HBase's removal of a region that closed here, then, unless the server is stopping (a persistent L2 keeps its
   * blocks for the restart), the eviction from our L2 of the blocks of that region's files that no region still
   * online reads: HBase gives its own BucketCache no such signal, so there they linger until evicted for room.
   */
  @Override
  public boolean removeRegion(HRegion r, ServerName destination) {
    boolean removed = super.removeRegion(r, destination);
    if (removed && l2.isPresent() && !isStopping() && !isStopped()) {
      ExclusivePlacement.evictBlocksOfRegion(l2.get(), r.getRegionInfo().getEncodedName(),
          getOnlineRegionsLocalContext());
    }
    return removed;
  }

  /** Our L2, or empty when the site configuration sets no L2 engine. */
  public Optional<HBaseL2Cache> l2() {
    return l2;
  }
}
