package dev.blockcache.bucket.policy;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.function.LongSupplier;

/**
 * The L2's write budget ({@code hbase.bucketcache.admission.max.write.rate}): a token bucket of bytes, refilled at
 * the configured rate and holding at most one second of it (or one largest item, if more, so that any block can
 * pass), from which every admitted block takes its stored bytes. Flash wears with every byte written; the budget
 * bounds the bytes the L2 writes per second whatever the miss rate.
 *
 * <p>Thread-safety: safe for concurrent use; one short monitor per call.
 */
public final class WriteBudget {
  private final long bytesPerSecond;
  private final long burst;
  private final LongSupplier clockMs;
  @GuardedBy("this")
  private long tokens;
  @GuardedBy("this")
  private long lastRefillMs;

  /**
   * @param bytesPerSecond the rate, at least 1
   * @param largestItem the largest slot a block can take: the bucket always holds at least this much
   * @param clockMs milliseconds, injected so that tests step through time
   */
  public WriteBudget(long bytesPerSecond, long largestItem, LongSupplier clockMs) {
    if (bytesPerSecond < 1) {
      throw new IllegalArgumentException("bytes per second must be >= 1, was " + bytesPerSecond);
    }
    this.bytesPerSecond = bytesPerSecond;
    this.burst = Math.max(bytesPerSecond, largestItem);
    this.clockMs = clockMs;
    this.tokens = burst;
    this.lastRefillMs = clockMs.getAsLong();
  }

  /** Takes {@code bytes} from the budget if it holds that many; false (nothing taken) otherwise. */
  public synchronized boolean tryTake(long bytes) {
    refillLocked();
    if (tokens < bytes) {
      return false;
    }
    tokens -= bytes;
    return true;
  }

  /** Gives back {@code bytes} taken for a block that was then not written. */
  synchronized void giveBack(long bytes) {
    tokens = Math.min(burst, tokens + bytes);
  }

  @GuardedBy("this")
  private void refillLocked() {
    long now = clockMs.getAsLong();
    long elapsed = now - lastRefillMs;
    if (elapsed <= 0) {
      return;
    }
    // Whole milliseconds' worth only, so that sub-rate remainders are not lost: the clock advances by what was used.
    long add = elapsed >= 1000 ? burst : bytesPerSecond * elapsed / 1000;
    if (add > 0) {
      tokens = Math.min(burst, tokens + add);
      lastRefillMs = now;
    }
  }
}
