package dev.blockcache.bucket.persist;

import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Refuses, at start, a {@value BucketCacheKeys#PERSISTENT_PATH} that the checkpointer could not use or that
 * would land somewhere unintended: a relative path (it would follow the working directory), a directory, a path
 * whose directory is missing or not a directory, or a directory the process cannot write (the checkpoint is written
 * beside the file, then renamed over it). Without this, each problem showed only as a WARN per checkpoint interval.
 *
 * <p>Thread-safety: stateless.
 */
public final class PersistentPathCheck {
  private PersistentPathCheck() {}

  /**
   * Returns {@code path} as a {@link Path}.
   *
   * @throws ConfigException naming {@value BucketCacheKeys#PERSISTENT_PATH}, the value and why it is refused
   */
  public static Path check(String path) {
    Path file;
    try {
      file = Path.of(path);
    } catch (InvalidPathException e) {
      throw refused(path, "a valid file path (" + e.getReason() + ")");
    }
    if (!file.isAbsolute()) {
      throw refused(path, "an absolute file path");
    }
    if (Files.isDirectory(file)) {
      throw refused(path, "a file path, not a directory");
    }
    Path parent = file.getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw refused(path, "a file in an existing directory (" + parent + " does not exist or is not a directory)");
    }
    if (!Files.isWritable(parent)) {
      throw refused(path, "a file in a directory this process can write (" + parent + " is not writable)");
    }
    return file;
  }

  private static ConfigException refused(String path, String accepted) {
    return new ConfigException(BucketCacheKeys.PERSISTENT_PATH, path, accepted);
  }
}
