package dev.blockcache.hbase;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ScheduledChore;
import org.apache.hadoop.hbase.Stoppable;
import org.apache.hadoop.hbase.regionserver.HRegionServer;

/**
 * Regions that left a RegionServer, and the eviction of their blocks from our L2 once they have stayed away for
 * {@value #GRACE_MS}: the blocks of files no online region reads are then a pure waste of the L2. A region that
 * comes back within the grace period (a reopen after a schema change, a move back) keeps its blocks, which is why the
 * blocks are not dropped when the region closes. HBase's own BucketCache, given its online regions, treats such
 * blocks as orphans after a grace period too; the RegionServer gives it no online regions, so there it never does.
 *
 * <p>Thread-safety: {@link #left} and {@link #chore} may run concurrently; the departures are a concurrent map.
 */
final class DepartedRegions extends ScheduledChore {
  /** Milliseconds a region must have been away before its blocks are evicted; 0 evicts at the next check. */
  static final String GRACE_MS = "hbase.blockcache.departed.region.grace.ms";
  /** A day, as HBase's own grace for orphan blocks: long enough for any reopen or move back. */
  static final long GRACE_MS_DEFAULT = TimeUnit.DAYS.toMillis(1);
  /** Longest period between two checks: a minute, so a departure is acted on within a minute past its grace. */
  private static final long MAX_PERIOD_MS = TimeUnit.MINUTES.toMillis(1);
  /** Shortest period between two checks, for small graces in tests. */
  private static final long MIN_PERIOD_MS = 200;

  private final Predicate<String> online;
  private final Consumer<String> evict;
  private final LongSupplier clockMs;
  private final long graceMs;
  /** Encoded region name to the time (ms) it left. */
  private final Map<String, Long> departed = new ConcurrentHashMap<>();

  /**
   * Departures checked every {@code periodMs} against {@code online} (by encoded region name); {@code evict} is
   * called with the name of a region away for {@code graceMs} or more by {@code clockMs}. {@code stopper} stops the
   * chore.
   */
  DepartedRegions(Stoppable stopper, long periodMs, long graceMs, Predicate<String> online, Consumer<String> evict,
      LongSupplier clockMs) {
    super("blockcache-departed-regions", stopper, (int) periodMs, 0, TimeUnit.MILLISECONDS);
    this.online = online;
    this.evict = evict;
    this.clockMs = clockMs;
    this.graceMs = graceMs;
  }

  /**
   * The departures of {@code server}, checked by a chore on its chore service.
   *
   * @throws IllegalArgumentException naming {@value #GRACE_MS} when it is negative
   */
  static DepartedRegions schedule(HRegionServer server, HBaseL2Cache l2, Configuration conf) {
    long grace = conf.getLong(GRACE_MS, GRACE_MS_DEFAULT);
    if (grace < 0) {
      throw new IllegalArgumentException(GRACE_MS + "=" + grace + ": must be at least 0 (milliseconds)");
    }
    long period = Math.max(MIN_PERIOD_MS, Math.min(MAX_PERIOD_MS, grace / 2));
    DepartedRegions regions = new DepartedRegions(server, period, grace, name -> server.getRegion(name) != null,
        name -> ExclusivePlacement.evictBlocksOfRegion(l2, name, server.getOnlineRegionsLocalContext()),
        System::currentTimeMillis);
    server.getChoreService().scheduleChore(regions);
    return regions;
  }

  /** {@code encodedRegionName} closed on this server now. */
  void left(String encodedRegionName) {
    departed.put(encodedRegionName, clockMs.getAsLong());
  }

  /** Forgets the regions back online; evicts the blocks of those away for the grace period or more. */
  @Override
  protected void chore() {
    long now = clockMs.getAsLong();
    for (Iterator<Map.Entry<String, Long>> it = departed.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Long> departure = it.next();
      String region = departure.getKey();
      if (online.test(region)) {
        it.remove(); // back online
      } else if (now - departure.getValue() >= graceMs) {
        it.remove();
        evict.accept(region);
      }
    }
  }
}
