package dev.blockcache.jmh.hbase;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;

/**
 * Waits for HBase's {@code BucketCache} writers. HBase has no drain hook; its {@code heapSize()} is the heap of the
 * blocks waiting in its RAM cache (added when a block is queued, subtracted when a writer removes it), so
 * {@link #await} polls it until it is 0.
 *
 * <p>Thread-safety: stateless.
 */
public final class HBaseBucketDrain {
  /** How long {@link #await} waits for HBase's writers before it fails the benchmark. */
  private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);
  /** The poll interval: short against a drain (tens of milliseconds and more). */
  private static final long POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

  private HBaseBucketDrain() {}

  /** Returns once {@code cache}'s RAM cache is empty; throws naming {@code name} after 120 s. */
  public static void await(BucketCache cache, String name) {
    long deadline = System.nanoTime() + TIMEOUT_NANOS;
    while (cache.heapSize() != 0) {
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(name + ": writers did not drain in 120 s, " + cache.heapSize()
            + " bytes still waiting");
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
  }
}
