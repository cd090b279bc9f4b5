package dev.blockcache.bucket.engine;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;

/**
 * The exclusive lock every cache takes on the files it uses, so that two caches never share a file and a file
 * another cache holds is never replaced or deleted.
 *
 * <p>Thread-safety: stateless.
 */
public final class CacheFileLock {
  private CacheFileLock() {}

  /**
   * An exclusive lock on {@code channel}'s file, or null when another process, or another channel of this JVM, holds
   * one. The caller releases the lock, or closes the channel, which releases it.
   */
  public static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      return null;
    }
  }
}
