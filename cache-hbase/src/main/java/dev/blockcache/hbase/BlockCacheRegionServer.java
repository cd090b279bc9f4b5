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
 * When a region has left the server for a grace period, the blocks of its files that no online region reads are
 * dropped from our L2 ({@link DepartedRegions}).
 * Everything else is HBase's {@link HRegionServer}.
 *
 * <p>Thread-safety: as {@link HRegionServer}; the placement happens in the constructor.
 */
public class BlockCacheRegionServer extends HRegionServer {
  private final Optional<HBaseL2Cache> l2;
  /** Regions that left, whose blocks go after a grace period; null without an L2. */
  private final DepartedRegions departed;

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
    this.departed = l2.isPresent() ? DepartedRegions.schedule(this, l2.get(), site) : null;
  }

  /**
   * HBase's addition of a region opened here, then our L2 learns the region of its store files, so that blocks of
   * them restored from a checkpoint are reported under it ({@code getRegionCachedInfo}, the load report).
   */
  @Override
  public void addRegion(HRegion region) {
    super.addRegion(region);
    l2.ifPresent(cache -> cache.learnRegionsOf(ExclusivePlacement.storeFilePaths(region)));
  }

  /**
   * HBase's removal of a region that closed here; unless the server is stopping (a persistent L2 keeps its blocks for
   * the restart), the region is noted as departed: if it is not back within {@value DepartedRegions#GRACE_MS}, the
   * blocks of its files that no online region reads are evicted from our L2.
   */
  @Override
  public boolean removeRegion(HRegion r, ServerName destination) {
    boolean removed = super.removeRegion(r, destination);
    if (removed && departed != null && !isStopping() && !isStopped()) {
      departed.left(r.getRegionInfo().getEncodedName());
    }
    return removed;
  }

  /** Our L2, or empty when the site configuration sets no L2 engine. */
  public Optional<HBaseL2Cache> l2() {
    return l2;
  }
}
