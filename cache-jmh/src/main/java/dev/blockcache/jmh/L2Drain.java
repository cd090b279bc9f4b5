package dev.blockcache.jmh;

import dev.blockcache.bucket.BucketCache;
import java.time.Duration;

/**
 * The one way benchmarks and experiments wait for an L2's writers: {@link BucketCache#awaitWritten} with a generous
 * bound, a timeout or an interrupt failing the run instead of skewing it.
 *
 * <p>Thread-safety: stateless.
 */
public final class L2Drain {
  /** How long a wait may take before the run fails: far beyond any burst the benchmarks offer. */
  private static final Duration BOUND = Duration.ofMinutes(2);

  private L2Drain() {}

  /** Returns once every block {@code cache} accepted so far is in its slot or was dropped and counted. */
  public static void await(BucketCache cache) {
    try {
      if (!cache.awaitWritten(BOUND)) {
        throw new IllegalStateException("L2 blocks still waiting for their writers after " + BOUND);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the L2 writers", e);
    }
  }
}
