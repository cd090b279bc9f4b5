package dev.blockcache.bucket;

import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.engine.CacheFileLock;
import dev.blockcache.bucket.engine.FileIoEngine;
import dev.blockcache.bucket.persist.ConfigFingerprint;
import dev.blockcache.bucket.persist.IndexCheckpointReader;
import dev.blockcache.bucket.persist.PersistentPathLock;
import dev.blockcache.config.ConfigException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cache start over cache files whose own header was damaged (truncated, to zero or into the header, or overwritten
 * at its start, as a crash or a file-system repair can leave them). The file engines refuse every file without our
 * header, so that a file the cache did not create is never overwritten; a damaged file of our own is refused the same
 * way unless something else proves it ours. The proof is the cache's own checkpoint: a whole checkpoint (framing and
 * CRC32C intact) at {@code hbase.bucketcache.persistent.path} whose configuration fingerprint is this configuration's,
 * which covers the engine spec and so names the files. With that proof the damaged files and the checkpoint are
 * deleted (their blocks cannot be trusted, and a checkpoint describing them would restore entries over zeroed slots)
 * and the engine creates fresh files: the cache starts cold, as HBase's does. Without it (no persistent path, no
 * checkpoint, a damaged checkpoint, one of another configuration, or an {@code mmap:} engine, which never
 * checkpoints) the start is refused as before and nothing is touched.
 *
 * <p>Thread-safety: stateless. Runs before the engine is opened, holding the persistent path's lock (so no other
 * cache is checkpointing there) and each damaged file's own lock (so no other cache has it open) while it deletes.
 */
final class DamagedCacheFiles {
  private static final Logger LOG = LoggerFactory.getLogger(DamagedCacheFiles.class);

  private DamagedCacheFiles() {}

  /**
   * Deletes the files of {@code config}'s engine whose header is damaged, and the checkpoint, when the checkpoint
   * proves them ours; does nothing otherwise (the engine's open then refuses them, naming the key).
   *
   * @return the files deleted (empty when nothing was damaged or nothing proved the damaged files ours)
   */
  static List<Path> startColdIfProvenOurs(BucketCacheConfig config) {
    String spec = config.ioEngine();
    String scheme = spec.substring(0, Math.max(0, spec.indexOf(':'))).toLowerCase(Locale.ROOT);
    if (config.persistentPath() == null || !(scheme.equals("file") || scheme.equals("files"))) {
      return List.of();
    }
    List<Path> damaged = new ArrayList<>();
    try {
      for (Path path : FileIoEngine.paths(spec)) {
        if (FileIoEngine.headerDamaged(path)) {
          damaged.add(path);
        }
      }
    } catch (ConfigException e) {
      return List.of(); // the engine's open refuses the spec and says why
    }
    Path checkpoint = Path.of(config.persistentPath());
    if (damaged.isEmpty() || !IndexCheckpointReader.writtenBy(checkpoint, ConfigFingerprint.of(
        ConfigFingerprint.describe(config.capacity(), config.bucketSizes(), config.bucketCapacity(), spec)))) {
      return List.of();
    }
    PersistentPathLock held = PersistentPathLock.acquire(checkpoint);
    try {
      for (Path path : damaged) {
        deleteUnlocked(path);
      }
      Files.deleteIfExists(checkpoint);
    } catch (IOException e) {
      throw new ConfigException(BucketCacheKeys.IOENGINE, spec, "cache files that can be replaced (" + damaged
          + " lost their header and the checkpoint " + checkpoint + " proves them this cache's, but deleting them"
          + " failed: " + e + ")");
    } finally {
      held.close();
    }
    LOG.warn("L2 cache files {} lost their header (truncated or overwritten); the checkpoint {} proves them this "
        + "cache's, so they and the checkpoint were deleted and the cache starts cold", damaged, checkpoint);
    return List.copyOf(damaged);
  }

  /** Deletes {@code path} while holding its lock, so that a file another cache has open is never deleted. */
  private static void deleteUnlocked(Path path) throws IOException {
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
      FileLock lock = CacheFileLock.tryLock(channel);
      if (lock == null) {
        throw new IOException(path + " is locked by another cache");
      }
      Files.delete(path);
    }
  }
}
