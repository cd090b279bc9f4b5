package dev.blockcache.bucket.engine;

import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Opens the cache files of a file engine at start, so that every problem shows then and never later: paths are
 * parsed and checked, files are created owner-only (0600) with a {@link CacheFileHeader}, locked against a second
 * cache, and extended to their size with zeros after checking that the file system has room. Every error names
 * {@value BucketCacheKeys#IOENGINE}, its value and what is accepted.
 *
 * <p>File safety: the cache never writes to a file it did not create. A symbolic link at a cache path is refused,
 * files are opened without following links, and an existing file is reused only if it starts with our header.
 *
 * <p>Existing bytes are kept (a file is only ever extended), so a restart can find its blocks again. Every byte of a
 * file is written when the file is created or extended, so a file this library made has no holes: a memory map of it
 * never needs the file system to find space later.
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
   * Opens {@code path} as a cache file of {@code dataSize} slot bytes after its {@link CacheFileHeader}: creates it
   * (owner-only, header first) when missing, or reuses it when it is a regular file that starts with our header; then
   * locks it and extends it to {@code CacheFileHeader.LENGTH + dataSize} bytes, writing every byte it adds.
   *
   * <p>File safety: a symbolic link at {@code path} is refused and the file is opened with
   * {@link LinkOption#NOFOLLOW_LINKS}; an existing file without our header is refused and left untouched (not
   * opened for writing past the check, not chmod'ed); a file this call created is deleted again if the start is
   * refused after its creation, so a refused start leaves no file behind.
   *
   * @throws ConfigException if the directory is missing or not writable, the path is a link or a file we did not
   *     create, the file is locked by another cache or the file system lacks the space; the file is closed then
   */
  static OpenFile open(String spec, Path path, long dataSize, PageCache pageCache) throws IOException {
    Path dir = path.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw bad(spec, "a path in an existing directory (" + dir + " does not exist)");
    }
    if (!Files.isWritable(dir)) {
      throw bad(spec, "a writable path (" + path + " is not writable)");
    }
    BasicFileAttributes existing = attributesNoFollow(path);
    if (existing == null) {
      return create(spec, path, dataSize, pageCache);
    }
    if (existing.isSymbolicLink()) {
      throw bad(spec, "a path that is not a symbolic link (" + path + " is one; the cache never writes through a"
          + " link: give the real path)");
    }
    if (!existing.isRegularFile() || !Files.isWritable(path)) {
      throw bad(spec, "a writable regular file (" + path + " is not one)");
    }
    return reuse(spec, path, dataSize, pageCache);
  }

  private static BasicFileAttributes attributesNoFollow(Path path) throws IOException {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** A new file: space checked first (so a refusal creates nothing), header written, deleted again on failure. */
  private static OpenFile create(String spec, Path path, long dataSize, PageCache pageCache) throws IOException {
    long needed = CacheFileHeader.LENGTH + dataSize;
    checkSpace(spec, path.toAbsolutePath().getParent(), path, needed);
    boolean posix = Files.getFileStore(path.toAbsolutePath().getParent()).supportsFileAttributeView("posix");
    FileAttribute<?>[] attributes = posix
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
        : new FileAttribute<?>[0];
    FileChannel channel = openChannel(spec, path, pageCache, attributes, StandardOpenOption.CREATE_NEW);
    try {
      FileLock lock = lock(spec, path, channel);
      ByteBuffer header = CacheFileHeader.fill(DirectIo.alignedZeros(CacheFileHeader.LENGTH));
      while (header.hasRemaining()) {
        channel.write(header, header.position());
      }
      preallocate(spec, path, channel, needed, pageCache);
      return new OpenFile(path, channel, lock);
    } catch (IOException | RuntimeException e) {
      channel.close();
      Files.deleteIfExists(path);
      throw e;
    }
  }

  /** An existing file: reused only if it carries our header; otherwise refused and left as it was. */
  private static OpenFile reuse(String spec, Path path, long dataSize, PageCache pageCache) throws IOException {
    FileChannel channel = openChannel(spec, path, pageCache, new FileAttribute<?>[0]);
    try {
      checkHeader(spec, path, channel);
      FileLock lock = lock(spec, path, channel);
      PosixFileAttributeView view =
          Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
      if (view != null) {
        view.setPermissions(OWNER_ONLY);
      }
      preallocate(spec, path, channel, CacheFileHeader.LENGTH + dataSize, pageCache);
      return new OpenFile(path, channel, lock);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static FileChannel openChannel(String spec, Path path, PageCache pageCache, FileAttribute<?>[] attributes,
      OpenOption... extra) {
    Set<OpenOption> options = new HashSet<>(
        List.of(StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
    options.addAll(List.of(extra));
    if (pageCache == PageCache.BYPASSED) {
      options.add(com.sun.nio.file.ExtendedOpenOption.DIRECT);
    }
    try {
      return FileChannel.open(path, options, attributes);
    } catch (FileAlreadyExistsException e) {
      throw bad(spec, "a path no one else creates meanwhile (" + path + " appeared while the cache created it)");
    } catch (UnsupportedOperationException | IOException e) {
      throw bad(spec, "a file that can be opened" + (pageCache == PageCache.BYPASSED ? " with O_DIRECT" : "") + " (" + path + ": " + e + ")");
    }
  }

  /**
   * Whether {@code path} is a regular file (not a link) whose first {@link CacheFileHeader#LENGTH} bytes do not carry
   * our marker: shorter than a header (truncated, even to zero), or overwritten at its start. Such a file is refused
   * by {@link #open}. Never throws; an unreadable file is reported as not damaged (the open then says why).
   */
  static boolean headerDamaged(Path path) {
    try {
      if (!attributesNoFollow(path).isRegularFile()) {
        return false;
      }
      try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
        ByteBuffer header = ByteBuffer.allocate(CacheFileHeader.LENGTH);
        while (header.hasRemaining() && channel.read(header, header.position()) > 0) {
          // reads until the header is full or the file ends
        }
        return header.hasRemaining() || !CacheFileHeader.hasMarker(header);
      }
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static void checkHeader(String spec, Path path, FileChannel channel) throws IOException {
    ByteBuffer header = DirectIo.alignedZeros(CacheFileHeader.LENGTH);
    if (channel.size() >= CacheFileHeader.LENGTH) {
      while (header.hasRemaining() && channel.read(header, header.position()) > 0) {
        // reads until the header is full or the file ends
      }
    }
    if (header.hasRemaining() || !CacheFileHeader.hasMarker(header)) {
      throw bad(spec, "a missing file (the cache creates it) or a cache file this library created (" + path
          + " exists and does not start with the " + CacheFileHeader.MAGIC_TEXT + " marker; it was left untouched:"
          + " move it away or choose another path)");
    }
    int version = CacheFileHeader.version(header);
    if (version != CacheFileHeader.VERSION) {
      throw bad(spec, "a cache file of layout version " + CacheFileHeader.VERSION + " (" + path + " has version "
          + version + "; it was left untouched: delete it to start cold)");
    }
  }

  private static FileLock lock(String spec, Path path, FileChannel channel) throws IOException {
    FileLock lock = CacheFileLock.tryLock(channel);
    if (lock == null) {
      throw bad(spec, "a file no other cache uses (" + path + " is locked by another cache)");
    }
    return lock;
  }

  private static void checkSpace(String spec, Path where, Path path, long bytes) throws IOException {
    long usable = Files.getFileStore(where).getUsableSpace();
    if (usable < bytes) {
      throw bad(spec, "a file system with room for the cache (" + path + " needs " + bytes + " more bytes, "
          + usable + " are free)");
    }
  }

  /** Extends the file to {@code size} bytes by writing zeros, so that every byte of it is allocated on the disk. */
  private static void preallocate(String spec, Path path, FileChannel channel, long size, PageCache pageCache)
      throws IOException {
    long existing = channel.size();
    if (existing >= size) {
      return;
    }
    checkSpace(spec, path, path, size - existing);
    if (pageCache == PageCache.BYPASSED && existing % DirectIo.ALIGNMENT != 0) {
      throw bad(spec, "with O_DIRECT, a file whose size is a multiple of " + DirectIo.ALIGNMENT + " (" + path
          + " has " + existing + " bytes)");
    }
    ByteBuffer zeros = pageCache == PageCache.BYPASSED ? DirectIo.alignedZeros(FILL_CHUNK) : ByteBuffer.allocateDirect(FILL_CHUNK);
    for (long at = existing; at < size; ) {
      int n = (int) Math.min(FILL_CHUNK, size - at);
      zeros.clear().limit(n);
      while (zeros.hasRemaining()) {
        at += channel.write(zeros, at);
      }
    }
    channel.force(true);
  }

  static ConfigException bad(String spec, String accepted) {
    return new ConfigException(BucketCacheKeys.IOENGINE, spec, accepted);
  }
}
