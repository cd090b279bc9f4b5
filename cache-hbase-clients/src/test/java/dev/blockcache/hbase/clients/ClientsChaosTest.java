package dev.blockcache.hbase.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.jmh.experiments.YcsbWorkload;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Chaos under a YCSB client: while YCSB's workload A (half reads verified by YCSB, half updates) runs over two
 * RegionServers with our L2 placed exclusively, a region moves to the other RegionServer, a region splits, the table
 * is major-compacted, and one RegionServer is killed (aborted, its WAL split and its regions reassigned) and a new one
 * started. Every read must return what was written (YCSB's {@code dataintegrity} check: no wrong value, no empty row,
 * no error after the client's retries), a final pass of reads must too, and neither leak detector (ours, HBase's
 * relocated netty; both at PARANOID for this module's tests) may report a buffer.
 *
 * <p>Not in the default test run (a cluster, a load, four actions and a RegionServer's recovery take longer than
 * this module's share of {@code ./mvnw verify}): {@code ./mvnw -B -Prs-chaos verify -pl cache-hbase-clients -am
 * -DskipTests} runs it, with both leak detectors at PARANOID.
 *
 * <p>Bounded: the client stops when the actions are done or after {@value #CLIENT_SECONDS} s, whichever comes first;
 * every wait on the cluster is bounded by {@value #WAIT_MILLIS} ms.
 *
 * <p>Thread-safety: JUnit's thread runs the actions; one executor thread runs the YCSB client.
 */
@Tag(ClientCluster.LARGE_TESTS)
@EnabledIfSystemProperty(named = "blockcache.rsclients.chaos", matches = "true")
class ClientsChaosTest {
  private static final TableName TABLE = TableName.valueOf(YcsbRun.TABLE);
  private static final int RECORDS = 2_000;
  private static final long CLIENT_SECONDS = 150;
  private static final long WAIT_MILLIS = 90_000;

  @Test
  void readsStayRightThroughMovesSplitsCompactionAndARegionServerRestart() throws Exception {
    try (ClientCluster cluster = ClientCluster.start(
        new ClientCluster.Spec(ClientStack.OURS_EXCLUSIVE, 8L << 20, 32, "none", 2, null))) {
      cluster.createTable(TABLE, YcsbRun.FAMILY, ClientCluster.digitSplits("user", 4));
      YcsbRun.load(cluster.connection(), RECORDS, 2);
      cluster.util().flush(TABLE);

      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService client = Executors.newSingleThreadExecutor();
      try {
        Future<YcsbRun.Result> during = client.submit(() -> YcsbRun.run(cluster.connection(), YcsbWorkload.A,
            RECORDS, 2, Long.MAX_VALUE, Duration.ofSeconds(CLIENT_SECONDS), stop));
        try (Admin admin = cluster.connection().getAdmin()) {
          moveOneRegion(cluster, admin);
          splitOneRegion(cluster, admin);
          majorCompact(cluster, admin);
          killAndRestartOneRegionServer(cluster);
        } finally {
          stop.set(true);
        }
        YcsbRun.Result r = during.get(CLIENT_SECONDS + 60, TimeUnit.SECONDS);
        System.out.printf("chaos: %d YCSB operations during the actions, %d wrong, %d empty, %d errors%n",
            r.operations(), r.wrongReads(), r.failedReads(), r.errors());
        assertTrue(r.operations() > 0, "the client ran no operation");
        assertEquals(0, r.wrongReads(), "reads YCSB found holding another value");
        assertEquals(0, r.failedReads(), "reads YCSB found empty");
        assertEquals(0, r.errors(), "operations that failed after the client's retries");
      } finally {
        client.shutdownNow();
      }
      YcsbRun.Result after = YcsbRun.run(cluster.connection(), YcsbWorkload.C, RECORDS, 2, RECORDS,
          Duration.ofSeconds(60));
      assertEquals(RECORDS, after.operations(), "final reads");
      assertEquals(0, after.wrongReads() + after.failedReads() + after.errors(), "final reads: " + after);
    }
  }

  /** Moves the table's first region to the RegionServer that does not hold it. */
  private static void moveOneRegion(ClientCluster cluster, Admin admin) throws Exception {
    HRegionLocation first = locations(cluster).get(0);
    ServerName other = cluster.regionServers().stream().map(rs -> rs.getServerName())
        .filter(sn -> !sn.equals(first.getServerName())).findFirst().orElseThrow();
    admin.move(first.getRegion().getEncodedNameAsBytes(), other);
    cluster.util().waitFor(WAIT_MILLIS, () -> other.equals(locations(cluster).get(0).getServerName()));
    cluster.util().waitUntilNoRegionsInTransition(WAIT_MILLIS);
  }

  /** Splits the region holding keys from {@code user5} at {@code user55}. */
  private static void splitOneRegion(ClientCluster cluster, Admin admin) throws Exception {
    int before = locations(cluster).size();
    admin.split(TABLE, Bytes.toBytes("user55"));
    cluster.util().waitFor(WAIT_MILLIS, () -> locations(cluster).size() == before + 1);
    cluster.util().waitUntilNoRegionsInTransition(WAIT_MILLIS);
  }

  private static void majorCompact(ClientCluster cluster, Admin admin) throws Exception {
    admin.majorCompact(TABLE);
    cluster.util().waitFor(WAIT_MILLIS, () -> admin.getCompactionState(TABLE) == CompactionState.NONE);
  }

  /** Aborts the RegionServer holding the most regions, waits for its regions to reopen, starts another. */
  private static void killAndRestartOneRegionServer(ClientCluster cluster) throws Exception {
    ServerName victim = cluster.regionServers().stream()
        .max((a, b) -> Integer.compare(a.getRegions(TABLE).size(), b.getRegions(TABLE).size()))
        .orElseThrow().getServerName();
    cluster.util().getMiniHBaseCluster().killRegionServer(victim);
    cluster.util().getMiniHBaseCluster().waitForRegionServerToStop(victim, WAIT_MILLIS);
    cluster.util().waitFor(WAIT_MILLIS,
        () -> locations(cluster).stream().noneMatch(l -> victim.equals(l.getServerName())));
    cluster.util().waitUntilNoRegionsInTransition(WAIT_MILLIS);
    cluster.util().getMiniHBaseCluster().startRegionServer().waitForServerOnline();
    cluster.spread(TABLE);
  }

  private static List<HRegionLocation> locations(ClientCluster cluster) throws java.io.IOException {
    try (RegionLocator locator = cluster.connection().getRegionLocator(TABLE)) {
      locator.clearRegionLocationCache();
      return locator.getAllRegionLocations();
    }
  }
}
