package dev.blockcache.hbase.minicluster;

import dev.blockcache.hbase.HBaseL2Cache;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Waiter;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.regionserver.HRegionServer;

/**
 * What the RegionServer benchmarks read from a RegionServer in this JVM beside its metrics: bytes allocated by its
 * RPC handler threads (the threads that run the read path), the JVM's garbage collections, and an L2 whose writers
 * have drained.
 *
 * <p>Thread-safety: stateless; safe for concurrent use.
 */
public final class RegionServerProbes {
  private RegionServerProbes() {}

  /** Bytes allocated so far by the live RPC handler threads of {@code rs} (ThreadMXBean, per thread). */
  public static long handlerBytes(HRegionServer rs) {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    String port = "port=" + rs.getRpcServer().getListenerAddress().getPort();
    long bytes = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      String name = t.getName();
      if (name.contains("handler=") && name.contains(port)) {
        bytes += Math.max(0, threads.getThreadAllocatedBytes(t.getId()));
      }
    }
    return bytes;
  }

  /** Bytes allocated so far by every thread of this JVM. */
  public static long jvmBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes();
  }

  /** Milliseconds this JVM has spent in garbage collection so far, all collectors. */
  public static long gcMillis() {
    long ms = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ms += Math.max(0, gc.getCollectionTime());
    }
    return ms;
  }

  /** Garbage collections this JVM has run so far, all collectors. */
  public static long gcCount() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }

  /**
   * Waits, at most 60 s, until {@code l2}'s writers have drained: ours through its drain hook; HBase's BucketCache,
   * which has none, until its block count stops moving for a second.
   */
  public static void awaitSettled(BlockCache l2) throws InterruptedException {
    if (l2 instanceof HBaseL2Cache ours) {
      if (!ours.l2().awaitWritten(Duration.ofSeconds(60))) {
        throw new IllegalStateException("our L2's writers did not drain within 60 s");
      }
      return;
    }
    long[] last = {-1};
    // HBase's Waiter polls once a second, bounded: settled once two polls see the same block count.
    Waiter.waitFor(new Configuration(false), 60_000, 1_000, () -> {
      long now = l2.getBlockCount();
      boolean settled = now == last[0];
      last[0] = now;
      return settled;
    });
  }
}
