package dev.blockcache.bucket.engine;

import dev.blockcache.config.BucketCacheConfig;
import dev.blockcache.config.ConfigException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Opens the cache files of a file engine at start, so that every problem shows then and never later: paths are
 * parsed and checked, files are created owner-only (0600), locked against a second cache, and extended to their size
 * with zeros after checking that the file system has room. Every error names {@value BucketCacheConfig#IOENGINE},
 * its value and what is accepted.
 *
 * <p>Existing bytes are kept (a file is only ever extended), so a restart can find its blocks again.
 *
 * <p>Thread-safety: stateless.
 */
final class CacheFiles {
  /** Zeros written per call while preallocating: large enough for few calls, small enough to stay off the heap. */
  private static final int FILL_CHUNK = 1 << 20;
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

  private CacheFiles() {}

  /** One open, locked, preallocated cache file. Closing it releases the lock. */
  record OpenFile(Path path, FileChannel channel, FileLock lock) implements AutoCloseable {
    @Override
    public void close() {
      try {
        channel.close();
      } catch (IOException e) {
        // the lock goes with the channel; nothing else to release
      }
    }
  }

  /**
   * The paths after {@code scheme:} in {@code spec}, comma-separated: absolute, distinct, not directories.
   *
   * @throws ConfigException naming the key and the value otherwise
   */
  static List<Path> parsePaths(String spec) {
    int colon = spec.indexOf(':');
    String list = colon < 0 ? "" : spec.substring(colon + 1);
    List<Path> paths = new ArrayList<>();
    Set<Path> seen = new HashSet<>();
    for (String part : list.split(",", -1)) {
      String text = part.trim();
      Path path;
      try {
        path = text.isEmpty() ? null : Path.of(text);
      } catch (InvalidPathException e) {
        throw bad(spec, "valid file paths (" + e.getMessage() + ")");
      }
      if (path == null || !path.isAbsolute()) {
        throw bad(spec, "absolute file paths after the scheme, e.g. file:/data/cache.bin ('" + text + "' is not)");
      }
      path = path.normalize();
      if (!seen.add(path)) {
        throw bad(spec, "distinct paths (" + path + " is given twice)");
      }
      if (Files.isDirectory(path)) {
        throw bad(spec, "paths of files, not directories (" + path + " is a directory)");
      }
      paths.add(path);
    }
    return paths;
  }

  /**
   * Opens (creating owner-only if missing), locks and extends {@code path} to {@code size} bytes.
   *
   * @throws ConfigException if the directory is missing or not writable, the file is locked by another cache or the
   *     file system lacks the space; the file is closed then
   */
  static OpenFile open(String spec, Path path, long size, boolean directIo) throws IOException {
    Path dir = path.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw bad(spec, "a path in an existing directory (" + dir + " does not exist)");
    }
    if (!Files.isWritable(dir) || (Files.exists(path) && !Files.isWritable(path))) {
      throw bad(spec, "a writable path (" + path + " is not writable)");
    }
    boolean posix = Files.getFileStore(dir).supportsFileAttributeView("posix");
    Set<OpenOption> options = new HashSet<>(
        List.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE));
    if (directIo) {
      options.add(com.sun.nio.file.ExtendedOpenOption.DIRECT);
    }
    FileAttribute<?>[] attributes = posix
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
        : new FileAttribute<?>[0];
    FileChannel channel;
    try {
      channel = FileChannel.open(path, options, attributes);
    } catch (UnsupportedOperationException | IOException e) {
      throw bad(spec, "a file that can be opened" + (directIo ? " with O_DIRECT" : "") + " (" + path + ": " + e + ")");
    }
    try {
      if (posix) {
        Files.setPosixFilePermissions(path, OWNER_ONLY);
      }
      FileLock lock = lock(spec, path, channel);
      preallocate(spec, path, channel, size, directIo);
      return new OpenFile(path, channel, lock);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static FileLock lock(String spec, Path path, FileChannel channel) throws IOException {
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      throw bad(spec, "a file no other cache uses (" + path + " is locked by another cache)");
    }
    return lock;
  }

  private static void preallocate(String spec, Path path, FileChannel channel, long size, boolean directIo)
      throws IOException {
    long existing = channel.size();
    if (existing >= size) {
      return;
    }
    long usable = Files.getFileStore(path).getUsableSpace();
    if (usable < size - existing) {
      throw bad(spec, "a file system with room for the cache (" + path + " needs " + (size - existing)
          + " more bytes, " + usable + " are free)");
    }
    if (directIo && existing % DirectIo.ALIGNMENT != 0) {
      throw bad(spec, "with O_DIRECT, a file whose size is a multiple of " + DirectIo.ALIGNMENT + " (" + path
          + " has " + existing + " bytes)");
    }
    long from = existing;
    ByteBuffer zeros = directIo ? DirectIo.alignedZeros(FILL_CHUNK) : ByteBuffer.allocateDirect(FILL_CHUNK);
    for (long at = from; at < size; ) {
      int n = (int) Math.min(FILL_CHUNK, size - at);
      zeros.clear().limit(n);
      while (zeros.hasRemaining()) {
        at += channel.write(zeros, at);
      }
    }
    channel.force(true);
  }

  static ConfigException bad(String spec, String accepted) {
    return new ConfigException(BucketCacheConfig.IOENGINE, spec, accepted);
  }
}
