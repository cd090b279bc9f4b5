package dev.blockcache.bucket.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.config.EngineGeometry;
import dev.blockcache.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pins the file-safety rules of the file engines ({@code file:}, {@code files:}, {@code mmap:}): the cache never
 * writes to a file it did not create. Forbids: following a symbolic link planted at a cache path; taking over an
 * existing file without our header (chmod'ing and overwriting it); leaving a file behind after a refused start; and
 * a cache file larger than the configured capacity plus one header.
 */
class CacheFileSafetyTest {
  private static final long CAPACITY = 1L << 20;
  private static final int SEGMENT = 64 * 1024;

  @org.junit.jupiter.api.io.TempDir
  Path dir;

  private static IoEngine open(String scheme, String spec) throws IOException {
    return scheme.equals("mmap")
        ? MmapIoEngine.open(spec, CAPACITY, SEGMENT, FileEngineOptions.DEFAULTS)
        : FileIoEngine.open(spec, CAPACITY, SEGMENT, FileEngineOptions.DEFAULTS);
  }

  private static String spec(String scheme, Path path) {
    return scheme + ":" + path;
  }

  /** A file of someone else's bytes, larger than the cache needs, mode 0644. */
  private static byte[] foreignFile(Path path) throws IOException {
    byte[] bytes = new byte[(int) (2 * CAPACITY)];
    new Random(7).nextBytes(bytes);
    Files.write(path, bytes);
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-r--r--"));
    return bytes;
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "files", "mmap"})
  void aSymlinkAtTheCachePathIsRefusedAndItsTargetLeftUntouched(String scheme) throws IOException {
    Path target = dir.resolve("precious.db");
    byte[] bytes = foreignFile(target);
    Path link = Files.createSymbolicLink(dir.resolve("cache.bin"), target);
    String spec = spec(scheme, link);
    ConfigException e = assertThrows(ConfigException.class, () -> open(scheme, spec));
    assertEquals(BucketCacheKeys.IOENGINE, e.key());
    assertEquals(spec, e.value());
    assertTrue(e.getMessage().contains("symbolic link") && e.getMessage().contains(link.toString()), e.getMessage());
    assertArrayEquals(bytes, Files.readAllBytes(target));
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(target)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "files", "mmap"})
  void anExistingFileWithoutOurMarkerIsRefusedAndLeftUntouched(String scheme) throws IOException {
    Path path = dir.resolve("cache.bin");
    byte[] bytes = foreignFile(path);
    String spec = spec(scheme, path);
    ConfigException e = assertThrows(ConfigException.class, () -> open(scheme, spec));
    assertEquals(BucketCacheKeys.IOENGINE, e.key());
    assertTrue(e.getMessage().contains(CacheFileHeader.MAGIC_TEXT) && e.getMessage().contains(path.toString()),
        e.getMessage());
    assertArrayEquals(bytes, Files.readAllBytes(path));
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "mmap"})
  void anEmptyOrShortForeignFileIsRefusedToo(String scheme) throws IOException {
    Path path = Files.createFile(dir.resolve("cache.bin"));
    assertThrows(ConfigException.class, () -> open(scheme, spec(scheme, path)));
    assertEquals(0, Files.size(path));
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "mmap"})
  void aFileWeCreatedIsReused(String scheme) throws IOException {
    Path path = dir.resolve("cache.bin");
    open(scheme, spec(scheme, path)).close();
    open(scheme, spec(scheme, path)).close();
    assertTrue(Files.exists(path));
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "mmap"})
  void aRefusedStartLeavesNoFileBehind(String scheme) {
    Path path = dir.resolve("huge.bin");
    String spec = spec(scheme, path);
    long exabyte = 1L << 60;
    assertThrows(ConfigException.class, () -> {
      IoEngine engine = scheme.equals("mmap")
          ? MmapIoEngine.open(spec, exabyte, SEGMENT, FileEngineOptions.DEFAULTS)
          : FileIoEngine.open(spec, exabyte, SEGMENT, FileEngineOptions.DEFAULTS);
      engine.close();
    });
    assertFalse(Files.exists(path), "a refused start left " + path);
  }

  @Test
  void aFileLockedByAnotherCacheIsNotDeletedByTheRefusal() throws IOException {
    Path path = dir.resolve("cache.bin");
    try (IoEngine first = open("file", spec("file", path))) {
      assertThrows(ConfigException.class, () -> open("file", spec("file", path)));
      assertTrue(Files.exists(path) && !first.isClosed());
    }
  }

  /** 32 MB of HBase's default bucket sizes once made a 44 MB file: whole segments were rounded up. */
  @ParameterizedTest
  @ValueSource(strings = {"file", "files", "mmap"})
  void diskUseIsTheUsableCapacityPlusOneHeaderPerFile(String scheme) throws IOException {
    Path a = dir.resolve("a.bin");
    Path b = dir.resolve("b.bin");
    String spec = scheme.equals("files") ? "files:" + a + "," + b : scheme + ":" + a;
    BucketCacheConfig config = BucketCacheConfig.builder(spec, 32L << 20).build();
    try (BucketCache cache = BucketCache.create(config)) {
      long onDisk = Files.size(a) + (scheme.equals("files") ? Files.size(b) : 0);
      int files = scheme.equals("files") ? 2 : 1;
      assertEquals(EngineGeometry.capacity(config) + (long) files * CacheFileHeader.LENGTH, onDisk);
      assertTrue(onDisk <= config.capacity() + (long) files * CacheFileHeader.LENGTH, onDisk + " bytes on disk");
      assertEquals(EngineGeometry.capacity(config), cache.capacity());
    }
  }
}
