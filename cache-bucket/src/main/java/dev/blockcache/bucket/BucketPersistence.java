package dev.blockcache.bucket;

import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.persist.ConfigFingerprint;
import dev.blockcache.bucket.persist.IndexPersister;
import dev.blockcache.bucket.persist.PersistentPathCheck;
import dev.blockcache.bucket.persist.PersistentPathLock;
import dev.blockcache.config.ConfigException;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warm restart for one {@link BucketCache}: restores the last index checkpoint before the writers start and
 * checkpoints every {@code hbase.bucketcache.persist.intervalinmillis} and at close. Active only with
 * {@code hbase.bucketcache.persistent.path} set on an engine where restored blocks are verified before they are
 * served ({@link IndexPersister#canRestore}); otherwise one log line says why the cache stays cold. While active it
 * holds the path's {@link PersistentPathLock}, so a second cache on the same path is refused at start.
 *
 * <p>Lifecycle: the constructor starts nothing; {@link #start} restores and starts the checkpoint thread;
 * {@link #close} (after the writers stopped, before the index is emptied) writes the final checkpoint.
 *
 * <p>Thread-safety: start and close are called by the cache's lifecycle methods, once each.
 */
final class BucketPersistence {
  private static final Logger LOG = LoggerFactory.getLogger(BucketPersistence.class);

  private final BucketCacheParts parts;
  private final IndexPersister persister;
  /** Held from creation to {@link #close}: no other cache checkpoints to the same path meanwhile. */
  private final PersistentPathLock lock;
  private ScheduledExecutorService scheduler;
  private IndexPersister.Restored restored;

  /**
   * Persistence for {@code parts}, or null when no persistent path is configured or the engine cannot use it.
   *
   * @throws ConfigException (after closing the engine) when the persistent path is unusable: see
   *     {@link PersistentPathCheck}
   */
  static BucketPersistence create(BucketCacheParts parts) {
    String path = parts.config.persistentPath();
    if (path == null) {
      return null;
    }
    try {
      PersistentPathCheck.check(path);
    } catch (ConfigException e) {
      parts.engine.close(); // the constructor fails: nothing else would close the engine it was given
      throw e;
    }
    if (!IndexPersister.canRestore(parts.engine, parts.config)) {
      LOG.warn("L2 index not persisted to {}: engine {} ({}) cannot verify restored blocks; needs a persistent "
          + "file engine (file: or files:) with hbase.bucketcache.checksum.verify=true", path, parts.engine.spec(),
          parts.engine.isPersistent() ? "memory-mapped or checksums off" : "not persistent");
      return null;
    }
    PersistentPathLock lock;
    try {
      lock = PersistentPathLock.acquire(Path.of(path));
    } catch (ConfigException e) {
      parts.engine.close();
      throw e;
    }
    String text = ConfigFingerprint.describe(parts.config, parts.engine.spec());
    return new BucketPersistence(parts, new IndexPersister(Path.of(path),
        ConfigFingerprint.of(parts.config, parts.engine.spec()), text, parts.index, parts.engine, parts.clockMs),
        lock);
  }

  private BucketPersistence(BucketCacheParts parts, IndexPersister persister, PersistentPathLock lock) {
    this.parts = parts;
    this.persister = persister;
    this.lock = lock;
  }

  /** Restores the checkpoint (before any writer runs) and starts periodic checkpoints. */
  void start(String threadName) {
    restored = persister.restore(parts.allocator);
    if (restored.restored() > 0) {
      parts.index.forEach((segment, fingerprint, entry) -> parts.counters.blockAdded(IndexEntry.category(entry)));
    }
    scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    persister.start(scheduler, parts.config.persistIntervalMs());
  }

  /** Writes the final checkpoint, stops the checkpoint thread and releases the path's lock. */
  void close() {
    persister.close();
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
    lock.close();
  }

  /** What the last restore did, or null before {@link #start}. */
  IndexPersister.Restored restored() {
    return restored;
  }

  IndexPersister persister() {
    return persister;
  }
}
