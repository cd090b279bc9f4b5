package dev.blockcache.bucket.persist;

import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * An exclusive lock on a {@value BucketCacheKeys#PERSISTENT_PATH}, held by one cache from start to close, so two
 * caches (in one process or two) cannot checkpoint to the same file and silently discard each other's checkpoints.
 * The lock is an OS file lock on {@code <path>.lock}, created owner-only if missing and never written; the OS drops
 * it when the process dies, so a crash leaves no stale lock (the empty file stays, harmlessly).
 *
 * <p>Thread-safety: {@link #close()} is idempotent and safe from any thread.
 */
public final class PersistentPathLock implements AutoCloseable {
  private final FileChannel channel;

  private PersistentPathLock(FileChannel channel) {
    this.channel = channel;
  }

  /**
   * Locks {@code path}, which {@link PersistentPathCheck} accepted.
   *
   * @throws ConfigException naming {@value BucketCacheKeys#PERSISTENT_PATH} when another cache holds the lock or
   *     the lock file cannot be opened (e.g. a symbolic link is planted there)
   */
  public static PersistentPathLock acquire(Path path) {
    Path lockFile = lockFileOf(path);
    FileChannel channel;
    try {
      channel = FileChannel.open(lockFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          LinkOption.NOFOLLOW_LINKS), ownerOnly(lockFile));
    } catch (IOException | UnsupportedOperationException e) {
      throw new ConfigException(BucketCacheKeys.PERSISTENT_PATH, path, "a path whose lock file can be opened ("
          + lockFile + ": " + e + ")");
    }
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (IOException | OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      closeQuietly(channel);
      throw new ConfigException(BucketCacheKeys.PERSISTENT_PATH, path, "a path no other cache uses (" + lockFile
          + " is locked by another cache; two caches cannot share a checkpoint)");
    }
    return new PersistentPathLock(channel);
  }

  /** The lock file beside {@code path}: {@code <path>.lock}. */
  public static Path lockFileOf(Path path) {
    return path.resolveSibling(path.getFileName() + ".lock");
  }

  /** Releases the lock (closing the channel releases it). */
  @Override
  public void close() {
    closeQuietly(channel);
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // the lock is released with the channel either way
    }
  }

  private static FileAttribute<?>[] ownerOnly(Path file) {
    return file.getFileSystem().supportedFileAttributeViews().contains("posix")
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
        : new FileAttribute<?>[0];
  }
}
