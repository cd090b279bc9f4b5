package dev.blockcache.bucket.stats;

import dev.blockcache.bucket.config.BucketCacheKeys;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when IO errors have lasted long enough to take the L2 out of service, as HBase does with
 * {@value BucketCacheKeys#IO_ERRORS_TOLERATED_DURATION}.
 *
 * <h2>Policy</h2>
 * <ol>
 *   <li>The first IO error after a success starts the error window (its time is remembered).</li>
 *   <li>Any successful engine operation closes the window: the errors were transient.</li>
 *   <li>An error more than the tolerated duration after the window opened disables the L2, for good: gets miss,
 *       puts are dropped and counted, one ERROR log line says so. With a tolerated duration of 0, the first error at
 *       least 1 ms after the window opened disables.</li>
 * </ol>
 * The clock is injected (milliseconds), so tests step through the window without sleeping.
 *
 * <p>Thread-safety: safe for concurrent use; the window start and the disabled flag are atomics, and a success racing
 * with an error can at worst reopen the window one error later.
 */
public final class IoErrorTolerance {
  private static final Logger LOG = LoggerFactory.getLogger(IoErrorTolerance.class);
  /** The window-start value meaning "no error since the last success". */
  private static final long NO_ERRORS = Long.MIN_VALUE;

  private final long toleratedMs;
  private final LongSupplier clockMs;
  private final AtomicLong firstErrorAt = new AtomicLong(NO_ERRORS);
  private final LongAdder droppedPuts = new LongAdder();
  private volatile boolean disabled;

  public IoErrorTolerance(long toleratedMs, LongSupplier clockMs) {
    this.toleratedMs = toleratedMs;
    this.clockMs = clockMs;
  }

  /** An engine operation succeeded: closes the error window. */
  void succeeded() {
    if (firstErrorAt.get() != NO_ERRORS) {
      firstErrorAt.set(NO_ERRORS);
    }
  }

  /** An engine operation failed with an IO error; may disable the L2. */
  void failed(String engine, Throwable cause) {
    long now = clockMs.getAsLong();
    if (firstErrorAt.compareAndSet(NO_ERRORS, now)) {
      return;
    }
    long since = firstErrorAt.get();
    if (since != NO_ERRORS && now - since > toleratedMs && !disabled) {
      synchronized (this) {
        if (!disabled) {
          disabled = true;
          LOG.error("L2 cache on {} disabled: IO errors for {} ms, more than {}={} ms; gets now miss and puts are"
              + " dropped. Last error: {}", engine, now - since, BucketCacheKeys.IO_ERRORS_TOLERATED_DURATION,
              toleratedMs, cause.toString());
        }
      }
    }
  }

  /** Whether the L2 has been taken out of service. */
  public boolean disabled() {
    return disabled;
  }

  /** Counts a put dropped because the L2 is disabled. */
  public void droppedPut() {
    droppedPuts.increment();
  }

  long droppedPuts() {
    return droppedPuts.sum();
  }
}
