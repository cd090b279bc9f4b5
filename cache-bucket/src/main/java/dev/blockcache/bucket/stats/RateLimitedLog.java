package dev.blockcache.bucket.stats;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs a recurring warning at most once per interval, saying how many were suppressed in between, so a corrupt or
 * failing device cannot flood the log from the read path.
 *
 * <p>Thread-safety: safe for concurrent use; at most one caller per interval wins the compare-and-set and logs.
 */
public final class RateLimitedLog {
  private final Logger log;
  private final long intervalMs;
  private final LongSupplier clockMs;
  private final AtomicLong nextAllowedAt = new AtomicLong(Long.MIN_VALUE);
  private final LongAdder suppressed = new LongAdder();

  public RateLimitedLog(Logger log, long intervalMs, LongSupplier clockMs) {
    this.log = log;
    this.intervalMs = intervalMs;
    this.clockMs = clockMs;
  }

  /** Logs {@code format} with {@code args} at WARN unless a line was logged within the interval. */
  void warn(String format, Object... args) {
    long now = clockMs.getAsLong();
    long allowed = nextAllowedAt.get();
    if (now < allowed || !nextAllowedAt.compareAndSet(allowed, now + intervalMs)) {
      suppressed.increment();
      return;
    }
    long skipped = suppressed.sumThenReset();
    if (skipped > 0) {
      log.warn("({} similar warnings suppressed)", skipped);
    }
    log.warn(format, args);
  }
}
