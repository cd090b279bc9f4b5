package dev.blockcache.bucket.persist;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints an L2 index periodically and at close, and restores the last checkpoint on start.
 *
 * <h2>What a restore guarantees</h2>
 * A restored entry is only a claim that its slot holds the block: it is put into the index and its slot reserved in
 * the allocator, and the read path verifies the slot's header (full key, length) and the block's CRC32C before it is
 * served (lazy verification). Restore is therefore done only for engines that are persistent, not memory-mapped
 * views, and with checksum verification on ({@code BucketPersistence.canRestore}); otherwise the cache starts cold. Records that
 * cannot be placed (offset outside the device, slot already reserved by another record, wrong size class, duplicate
 * key) are discarded and counted.
 *
 * <h2>Checkpoints</h2>
 * The engine is synced first, so every slot the checkpoint names is durable; then the index is copied segment by
 * segment ({@link IndexCheckpointWriter}) and the file replaced atomically.
 *
 * <p>Lifecycle: the constructor starts nothing; {@link #start} schedules checkpoints on the given scheduler, which the
 * caller owns; {@link #close} cancels them and writes a final checkpoint.
 *
 * <p>Thread-safety: {@link #checkpoint} is serialised by a lock; restore must run before any writer starts.
 */
public final class IndexPersister {
  private static final Logger LOG = LoggerFactory.getLogger(IndexPersister.class);

  /** Outcome of a restore: what the checkpoint said, how many records were placed and how many discarded. */
  public record Restored(IndexCheckpointReader.Status status, String reason, long restored, long discarded) {}

  private final Path path;
  private final long configFingerprint;
  private final String configText;
  private final BlockIndex index;
  private final IoEngine engine;
  private final Object lock = new Object();
  @GuardedBy("lock")
  private ScheduledFuture<?> task;
  @GuardedBy("lock")
  private long checkpoints;
  /** Used under {@code lock} only. */
  private final CheckpointFailureLog failures;

  public IndexPersister(Path path, long configFingerprint, String configText, BlockIndex index, IoEngine engine) {
    this(path, configFingerprint, configText, index, engine, System::currentTimeMillis);
  }

  /** As the other constructor, with the clock (ms) of the failure-log rate limit injected. */
  public IndexPersister(Path path, long configFingerprint, String configText, BlockIndex index, IoEngine engine,
      LongSupplier clockMs) {
    this.path = path;
    this.configFingerprint = configFingerprint;
    this.configText = configText;
    this.index = index;
    this.engine = engine;
    this.failures = new CheckpointFailureLog(LOG, path, clockMs);
  }

  /** Restores the checkpoint into the (empty) index and reserves its slots in {@code allocator}. */
  public Restored restore(BucketAllocator allocator) {
    long[] discarded = {0};
    IndexCheckpointReader.Result r = new IndexCheckpointReader(configFingerprint)
        .read(path, index.segmentCount(), index::presize, (segment, fingerprint, entry) -> {
          if (!place(allocator, segment, fingerprint, entry)) {
            discarded[0]++;
          }
        });
    long placed = r.records() - discarded[0];
    switch (r.status()) {
      case RESTORED -> LOG.info("L2 warm restart from {}: {} entries restored (verified on first read), {} discarded",
          path, placed, discarded[0]);
      case MISSING -> LOG.info("L2 cold start: no index checkpoint at {}", path);
      case CONFIG_MISMATCH -> LOG.warn("L2 cold start: discarded index checkpoint {}: {}; this cache is {}", path,
          r.reason(), configText);
      case CORRUPT -> LOG.warn("L2 cold start: discarded corrupt index checkpoint {}: {}", path, r.reason());
    }
    return new Restored(r.status(), r.reason(), Math.max(0, placed), discarded[0]);
  }

  private boolean place(BucketAllocator allocator, int segment, long fingerprint, long entry) {
    if (entry < 0 || fingerprint == 0 || segment < 0 || segment >= index.segmentCount()) {
      return false;
    }
    long offset = IndexEntry.offset(entry);
    int length = IndexEntry.length(entry);
    if (length <= 0 || length > allocator.maxItemSize() || offset + length > allocator.capacity()) {
      return false;
    }
    try {
      allocator.reserve(offset, length);
    } catch (IllegalStateException | IllegalArgumentException e) {
      return false;
    }
    if (index.restore(segment, fingerprint, entry) != IndexEntry.ABSENT) {
      allocator.free(offset, length);
      return false;
    }
    return true;
  }

  /** Schedules a checkpoint every {@code intervalMs} on {@code scheduler} (owned by the caller). */
  public void start(ScheduledExecutorService scheduler, long intervalMs) {
    synchronized (lock) {
      task = scheduler.scheduleWithFixedDelay(this::checkpointQuietly, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Syncs the engine and writes one checkpoint now.
   *
   * @return the number of entries written
   */
  public long checkpoint() throws IOException {
    synchronized (lock) {
      engine.sync();
      long n = new IndexCheckpointWriter(path, configFingerprint).write(index);
      checkpoints++;
      return n;
    }
  }

  /** A checkpoint whose failure is logged (rate-limited, see {@link CheckpointFailureLog}), not thrown. */
  private void checkpointQuietly() {
    synchronized (lock) {
      try {
        checkpoint();
        failures.succeeded();
      } catch (IOException | RuntimeException e) {
        failures.failed(e);
      }
    }
  }

  /** Checkpoints written so far. */
  public long checkpoints() {
    synchronized (lock) {
      return checkpoints;
    }
  }

  /** Cancels scheduled checkpoints and writes a final one; the index must be quiescent (writers stopped). */
  public void close() {
    synchronized (lock) {
      if (task != null) {
        task.cancel(false);
      }
      checkpointQuietly();
    }
  }
}
