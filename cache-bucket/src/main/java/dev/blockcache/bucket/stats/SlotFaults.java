package dev.blockcache.bucket.stats;

import java.io.IOException;

/**
 * Where the read and write paths report what went wrong with a slot: IO errors (counted, fed to the
 * {@link IoErrorTolerance} window, logged rate-limited), slots whose header or checksum did not match, and whether the
 * L2 is still in service.
 *
 * <p>Thread-safety: safe for concurrent use; every part is.
 */
public final class SlotFaults {
  private final String engine;
  private final BucketCounters counters;
  private final IoErrorTolerance tolerance;
  private final RateLimitedLog warnings;

  /** Faults of the engine described by {@code engine} (its spec, for the log). */
  public SlotFaults(String engine, BucketCounters counters, IoErrorTolerance tolerance, RateLimitedLog warnings) {
    this.engine = engine;
    this.counters = counters;
    this.tolerance = tolerance;
    this.warnings = warnings;
  }

  /** An engine read or write ({@code operation}) of {@code bytes} at {@code offset} failed with {@code e}. */
  public void ioFailed(String operation, int bytes, long offset, IOException e) {
    counters.ioError();
    tolerance.failed(engine, e);
    warn("L2 " + operation + " of {} bytes at offset {} failed: {}", bytes, offset, e.toString());
  }

  /** An engine operation succeeded: closes the IO-error window. */
  public void ioSucceeded() {
    tolerance.succeeded();
  }

  /** Whether sustained IO errors took the L2 out of service. */
  public boolean disabled() {
    return tolerance.disabled();
  }

  /** A put dropped because the L2 is out of service. */
  public void droppedPut() {
    tolerance.droppedPut();
  }

  public void headerMismatch() {
    counters.headerMismatch();
  }

  public void checksumMismatch() {
    counters.checksumMismatch();
  }

  /** Logs at WARN, at most one line per interval (see {@link RateLimitedLog}). */
  public void warn(String format, Object... args) {
    warnings.warn(format, args);
  }
}
