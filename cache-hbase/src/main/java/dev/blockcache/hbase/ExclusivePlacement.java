package dev.blockcache.hbase;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.io.hfile.FirstLevelBlockCache;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Our L2 placed in a RegionServer as HBase places its own BucketCache: HBase's non-inclusive
 * {@link CombinedBlockCache} over the L1 HBase built ({@code LruBlockCache} or whatever {@code hfile.block.cache.policy}
 * names) and an {@link HBaseL2Cache}. Index, bloom and meta blocks go to the L1 only, data blocks to our L2 only, and
 * an L2 hit is handed to the reader as it is: no L1 victim handler, so no heap copy of the block.
 *
 * <h2>How</h2>
 * <ol>
 *   <li>{@link #forHBase} gives {@code HRegionServer}'s constructor the site configuration without the keys on which
 *       HBase's {@code BlockCacheFactory} would build an L2 of its own ({@value #IOENGINE}, {@value #USE_EXTERNAL}),
 *       so HBase builds its L1 alone. Nothing else in HBase 2.6's RegionServer reads those keys.</li>
 *   <li>{@link #install} builds our L2 from the full site configuration (the {@code hbase.bucketcache.*} keys, as
 *       {@link HBaseL2Cache#HBaseL2Cache(Configuration)} reads them) and puts the combined cache into the
 *       RegionServer's block cache field. HBase's RegionServer reads that private field directly in several places
 *       rather than through {@code getBlockCache()}: it shuts the cache down when the server stops ({@code run()}),
 *       gives it to its {@code HeapMemoryManager} (which resizes the L1 inside a combined cache), evicts a region's
 *       files from it ({@code clearRegionBlockCache}) and looks for a persistent BucketCache in it. Replacing the
 *       field once, before any of those run, gives every one of them, the regions' {@code CacheConfig}, the metrics
 *       wrapper, prefetch and the region load reports the same cache.</li>
 * </ol>
 * The field is written by reflection once per RegionServer, at construction; nothing on a read path uses
 * reflection. A RegionServer class that lacks the field fails to start with a message naming it, rather than run
 * with two different caches.
 *
 * <p>Thread-safety: stateless; {@link #evictBlocksOfRegion} may run on any thread; {@link #install} runs in the RegionServer's constructor, before its threads start.
 */
public final class ExclusivePlacement {
  /** HBase's key naming its L2's IO engine: read here for our L2, hidden from HBase's factory. */
  public static final String IOENGINE = "hbase.bucketcache.ioengine";
  /** HBase's switch for its external-cache hook, which would wrap the L2 in its inclusive combined cache. */
  public static final String USE_EXTERNAL = "hbase.blockcache.use.external";
  /** The private field of HBase's {@code HRegionServer} that holds its block cache. */
  static final String BLOCK_CACHE_FIELD = "blockCache";

  private static final Logger LOG = LoggerFactory.getLogger(ExclusivePlacement.class);

  private ExclusivePlacement() {}

  /**
   * A copy of {@code site} for {@code HRegionServer}'s constructor: without {@value #IOENGINE} and
   * {@value #USE_EXTERNAL}, so that HBase's factory builds its L1 alone. {@code site} is not changed.
   */
  public static Configuration forHBase(Configuration site) {
    Configuration conf = new Configuration(site);
    conf.unset(IOENGINE);
    conf.unset(USE_EXTERNAL);
    return conf;
  }

  /**
   * Builds our L2 from {@code site} and makes {@code server}'s block cache HBase's {@code CombinedBlockCache} over
   * the L1 that {@code server} built and our L2; the server's shutdown then closes our L2. Call once, from the
   * constructor of a RegionServer that was given {@link #forHBase}{@code (site)}.
   *
   * @return our L2, or empty when {@code site} sets no {@value #IOENGINE} or HBase built no L1
   *     ({@code hfile.block.cache.size} 0): the server then runs on what HBase built, as HBase itself would
   * @throws IOException when our L2's engine cannot be opened
   * @throws IllegalStateException when HBase built a cache that is not an L1 alone, or {@code server}'s class has no
   *     block cache field to place the combined cache in
   */
  public static Optional<HBaseL2Cache> install(HRegionServer server, Configuration site) throws IOException {
    if (site.get(IOENGINE) == null) {
      LOG.warn("{} is unset: the RegionServer runs on HBase's L1 alone", IOENGINE);
      return Optional.empty();
    }
    Field field = blockCacheField();
    BlockCache built = server.getBlockCache().orElse(null);
    if (built == null) {
      LOG.warn("HBase built no L1 (hfile.block.cache.size): the RegionServer runs without a block cache");
      return Optional.empty();
    }
    if (!(built instanceof FirstLevelBlockCache l1)) {
      throw new IllegalStateException("expected HBase to build its L1 alone, found " + built.getClass().getName());
    }
    HBaseL2Cache l2 = new HBaseL2Cache(site);
    try {
      field.set(server, new CombinedBlockCache(l1, l2));
    } catch (IllegalAccessException | RuntimeException e) {
      l2.shutdown();
      throw new IllegalStateException("cannot set " + HRegionServer.class.getName() + "." + BLOCK_CACHE_FIELD, e);
    }
    LOG.info("Block cache: HBase's {} (L1) and {} (L2), exclusive", built.getClass().getSimpleName(), l2);
    return Optional.of(l2);
  }

  /**
   * Evicts from {@code l2} the blocks of region {@code encodedRegionName}'s files, except those that a region of
   * {@code online} still reads: its own store files and, for reference files (split daughters), the files they refer
   * to. For a region that left the server.
   *
   * @return the number of blocks evicted
   */
  public static int evictBlocksOfRegion(HBaseL2Cache l2, String encodedRegionName, Collection<HRegion> online) {
    Set<String> inUse = new HashSet<>();
    for (HRegion region : online) {
      for (HStore store : region.getStores()) {
        for (HStoreFile file : store.getStorefiles()) {
          Path path = file.getPath();
          inUse.add(path.getName());
          if (file.isReference()) {
            inUse.add(StoreFileInfo.getReferredToFile(path).getName());
          }
        }
      }
    }
    int evicted = l2.evictBlocksOfRegion(encodedRegionName, inUse);
    if (evicted > 0) {
      LOG.debug("Region {} left: {} blocks of its files evicted from the L2", encodedRegionName, evicted);
    }
    return evicted;
  }

  /** The paths of {@code region}'s store files. */
  static List<Path> storeFilePaths(HRegion region) {
    List<Path> paths = new ArrayList<>();
    for (HStore store : region.getStores()) {
      for (HStoreFile file : store.getStorefiles()) {
        paths.add(file.getPath());
      }
    }
    return paths;
  }

  private static Field blockCacheField() {
    try {
      Field field = HRegionServer.class.getDeclaredField(BLOCK_CACHE_FIELD);
      if (!BlockCache.class.equals(field.getType())) {
        throw new IllegalStateException(HRegionServer.class.getName() + "." + BLOCK_CACHE_FIELD + " is a "
            + field.getType().getName() + ", not a BlockCache: this HBase line is not supported");
      }
      field.setAccessible(true);
      return field;
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(HRegionServer.class.getName() + " has no field " + BLOCK_CACHE_FIELD
          + ": this HBase line is not supported by the exclusive placement; use hbase.blockcache.external.class", e);
    }
  }
}
