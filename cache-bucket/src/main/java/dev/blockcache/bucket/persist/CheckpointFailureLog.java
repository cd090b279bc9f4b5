package dev.blockcache.bucket.persist;

import java.nio.file.Path;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * What the log says about failing checkpoints: the first failure at once, then at most one WARN per
 * {@link #INTERVAL_MS} with the number of failures since the last line, and one INFO line when a checkpoint succeeds
 * again. A checkpoint that fails every interval (a full or read-only disk) therefore cannot flood the log.
 *
 * <p>Thread-safety: not thread-safe; used under the persister's checkpoint lock.
 */
final class CheckpointFailureLog {
  /** Milliseconds between two WARN lines about failing checkpoints: enough to notice, too few to flood. */
  static final long INTERVAL_MS = 60_000;

  private final Logger log;
  private final Path path;
  private final LongSupplier clockMs;
  private long failuresSinceLine;
  private long failuresInRow;
  private long nextLineAt = Long.MIN_VALUE;

  CheckpointFailureLog(Logger log, Path path, LongSupplier clockMs) {
    this.log = log;
    this.path = path;
    this.clockMs = clockMs;
  }

  void failed(Exception e) {
    failuresInRow++;
    failuresSinceLine++;
    long now = clockMs.getAsLong();
    if (now < nextLineAt) {
      return;
    }
    nextLineAt = now + INTERVAL_MS;
    log.warn("L2 index checkpoint to {} failed (the previous one stays; {} failure(s) since the last such line,"
        + " {} in a row; next line in {} s at the earliest): {}", path, failuresSinceLine, failuresInRow,
        INTERVAL_MS / 1000, e.toString());
    failuresSinceLine = 0;
  }

  void succeeded() {
    if (failuresInRow > 0) {
      log.info("L2 index checkpoint to {} succeeded again after {} failure(s)", path, failuresInRow);
      failuresInRow = 0;
      failuresSinceLine = 0;
      nextLineAt = Long.MIN_VALUE;
    }
  }
}
