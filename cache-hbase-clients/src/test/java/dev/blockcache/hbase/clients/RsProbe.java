package dev.blockcache.hbase.clients;

import dev.blockcache.hbase.clients.fs.DelayedLocalFileSystem;
import dev.blockcache.hbase.minicluster.RegionServerProbes;
import org.apache.hadoop.hbase.io.hfile.CacheStats;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.regionserver.HRegionServer;

/**
 * The RegionServers' counters at one instant, summed over the cluster's live RegionServers: each tier's hits and
 * misses (the tier's own {@code CacheStats}, as the RegionServer's {@code l1Cache*}/{@code l2Cache*} metrics read
 * them), the modelled device's reads (the misses that cost device time, which the caches' counters may count
 * differently), bytes allocated by their RPC handler threads and by the whole JVM, and the JVM's garbage collections.
 * Two probes around a window give the window's figures.
 *
 * <p>Thread-safety: immutable.
 */
record RsProbe(long l1Hits, long l1Misses, long l2Hits, long l2Misses, long handlerBytes, long jvmBytes, long gcCount,
    long gcMillis, long deviceReads) {

  static RsProbe take(ClientCluster cluster) {
    long l1Hits = 0;
    long l1Misses = 0;
    long l2Hits = 0;
    long l2Misses = 0;
    long handler = 0;
    for (HRegionServer rs : cluster.regionServers()) {
      CombinedBlockCache cache = ClientCluster.cacheOf(rs);
      CacheStats l1 = cache.getFirstLevelCache().getStats();
      CacheStats l2 = cache.getSecondLevelCache().getStats();
      l1Hits += l1.getHitCount();
      l1Misses += l1.getMissCount();
      l2Hits += l2.getHitCount();
      l2Misses += l2.getMissCount();
      handler += RegionServerProbes.handlerBytes(rs);
    }
    return new RsProbe(l1Hits, l1Misses, l2Hits, l2Misses, handler, RegionServerProbes.jvmBytes(),
        RegionServerProbes.gcCount(), RegionServerProbes.gcMillis(), DelayedLocalFileSystem.deviceReads());
  }

  /** This probe's counters minus {@code before}'s. */
  RsProbe since(RsProbe before) {
    return new RsProbe(l1Hits - before.l1Hits, l1Misses - before.l1Misses, l2Hits - before.l2Hits,
        l2Misses - before.l2Misses, handlerBytes - before.handlerBytes, jvmBytes - before.jvmBytes,
        gcCount - before.gcCount, gcMillis - before.gcMillis, deviceReads - before.deviceReads);
  }

  double l1HitRatio() {
    return ratio(l1Hits, l1Misses);
  }

  double l2HitRatio() {
    return ratio(l2Hits, l2Misses);
  }

  private static double ratio(long hits, long misses) {
    return hits + misses == 0 ? Double.NaN : (double) hits / (hits + misses);
  }
}
