package dev.blockcache.bucket;

import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.persist.ConfigFingerprint;
import dev.blockcache.bucket.persist.IndexPersister;
import dev.blockcache.bucket.persist.PersistentPathCheck;
import dev.blockcache.bucket.persist.PersistentPathLock;
import dev.blockcache.bucket.stats.BucketCounters;
import dev.blockcache.config.ConfigException;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warm restart for one {@link BucketCache}: restores the last index checkpoint before the writers start and
 * checkpoints every {@code hbase.bucketcache.persist.intervalinmillis} and at close. Active only with
 * {@code hbase.bucketcache.persistent.path} set on an engine where restored blocks are verified before they are
 * served ({@link #canRestore}); otherwise one log line says why the cache stays cold. While active it
 * holds the path's {@link PersistentPathLock}, so a second cache on the same path is refused at start.
 *
 * <p>Lifecycle: the constructor starts nothing; {@link #start} restores and starts the checkpoint thread;
 * {@link #close} (after the writers stopped, before the index is emptied) writes the final checkpoint.
 *
 * <p>Thread-safety: start and close are called by the cache's lifecycle methods, once each.
 */
final class BucketPersistence {
  private static final Logger LOG = LoggerFactory.getLogger(BucketPersistence.class);

  private final IndexPersister persister;
  private final BucketAllocator allocator;
  private final BlockIndex index;
  private final BucketCounters counters;
  private final long intervalMs;
  /** Held from creation to {@link #close}: no other cache checkpoints to the same path meanwhile. */
  private final PersistentPathLock lock;
  private ScheduledExecutorService scheduler;
  private IndexPersister.Restored restored;

  /**
   * Persistence of {@code index} (slots of {@code allocator} on {@code engine}, counted in {@code counters}) as
   * {@code config} asks, or null when no persistent path is configured or the engine cannot use it.
   *
   * @throws ConfigException (after closing the engine) when the persistent path is unusable: see
   *     {@link PersistentPathCheck}
   */
  static BucketPersistence create(BucketCacheConfig config, IoEngine engine, BucketAllocator allocator,
      BlockIndex index, BucketCounters counters, LongSupplier clockMs) {
    String path = config.persistentPath();
    if (path == null) {
      return null;
    }
    try {
      PersistentPathCheck.check(path);
    } catch (ConfigException e) {
      engine.close(); // the constructor fails: nothing else would close the engine it was given
      throw e;
    }
    if (!canRestore(engine, config)) {
      LOG.warn("L2 index not persisted to {}: engine {} ({}) cannot verify restored blocks; needs a persistent "
          + "file engine (file: or files:) with hbase.bucketcache.checksum.verify=true", path, engine.spec(),
          engine.isPersistent() ? "memory-mapped or checksums off" : "not persistent");
      return null;
    }
    PersistentPathLock lock;
    try {
      lock = PersistentPathLock.acquire(Path.of(path));
    } catch (ConfigException e) {
      engine.close();
      throw e;
    }
    String text = ConfigFingerprint.describe(config.capacity(), config.bucketSizes(), config.bucketCapacity(),
        engine.spec());
    IndexPersister persister = new IndexPersister(Path.of(path), ConfigFingerprint.of(text), text,
        index, engine, clockMs);
    return new BucketPersistence(persister, lock, allocator, index, counters, config.persistIntervalMs());
  }

  /** Whether a restored entry would be verified before it is served from {@code engine} under {@code config}. */
  private static boolean canRestore(IoEngine engine, BucketCacheConfig config) {
    return engine.isPersistent() && !engine.isMemory() && config.checksumVerify();
  }

  private BucketPersistence(IndexPersister persister, PersistentPathLock lock, BucketAllocator allocator,
      BlockIndex index, BucketCounters counters, long intervalMs) {
    this.persister = persister;
    this.lock = lock;
    this.allocator = allocator;
    this.index = index;
    this.counters = counters;
    this.intervalMs = intervalMs;
  }

  /** Restores the checkpoint (before any writer runs) and starts periodic checkpoints. */
  void start(String threadName) {
    restored = persister.restore(allocator);
    if (restored.restored() > 0) {
      index.forEach((segment, fingerprint, entry) -> counters.blockAdded(IndexEntry.category(entry)));
    }
    scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    persister.start(scheduler, intervalMs);
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
