package dev.blockcache.bucket.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Every problem with a cache file shows at start as a ConfigException naming the key and the value. */
class CacheFilesTest {
  private static final long CAPACITY = 1L << 20;
  private static final int SEGMENT = 64 * 1024;

  @TempDir
  Path dir;

  private static ConfigException refused(String spec, Executable open, String because) {
    ConfigException e = assertThrows(ConfigException.class, open);
    assertEquals(BucketCacheKeys.IOENGINE, e.key());
    assertEquals(spec, e.value());
    assertTrue(e.getMessage().contains(because), e.getMessage());
    return e;
  }

  private static FileIoEngine open(String spec) throws IOException {
    return FileIoEngine.open(spec, CAPACITY, SEGMENT, FileEngineOptions.DEFAULTS);
  }

  @Test
  void filesAreCreatedOwnerOnlyAndPreallocated() throws IOException {
    Path file = dir.resolve("cache.bin");
    try (FileIoEngine engine = open("file:" + file)) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      assertEquals(CacheFileHeader.LENGTH + CAPACITY, Files.size(file));
      assertTrue(engine.isPersistent());
    }
  }

  @Test
  void aFileUsedByAnotherCacheIsRefused() throws IOException {
    String spec = "file:" + dir.resolve("cache.bin");
    try (FileIoEngine first = open(spec)) {
      refused(spec, () -> open(spec), "locked by another cache");
      assertTrue(!first.isClosed());
    }
    open(spec).close();
  }

  @Test
  void anExistingFileKeepsItsBytes() throws IOException {
    String spec = "file:" + dir.resolve("cache.bin");
    try (FileIoEngine engine = open(spec)) {
      engine.write(12345, Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
    }
    try (FileIoEngine engine = open(spec)) {
      ByteBuf read = engine.read(12345, 3);
      byte[] seen = new byte[3];
      read.readBytes(seen);
      read.release();
      assertArrayEquals(new byte[] {1, 2, 3}, seen);
    }
  }

  @Test
  void badPathsAreRefusedWithTheReason() throws IOException {
    refused("file:cache.bin", () -> open("file:cache.bin"), "absolute file paths");
    refused("file:", () -> open("file:"), "absolute file paths");
    String twice = "files:" + dir.resolve("a") + "," + dir.resolve("a");
    refused(twice, () -> open(twice), "given twice");
    String directory = "file:" + dir;
    refused(directory, () -> open(directory), "is a directory");
    String missing = "file:" + dir.resolve("no/such/dir/cache.bin");
    refused(missing, () -> open(missing), "does not exist");
    String several = "file:" + dir.resolve("a") + "," + dir.resolve("b");
    refused(several, () -> open(several), "one path after file:");
    Path notADirectory = Files.createFile(dir.resolve("plain"));
    String under = "file:" + notADirectory.resolve("cache.bin");
    refused(under, () -> open(under), "does not exist");
  }

  @Test
  void tooLittleDiskSpaceIsRefusedAtStart() throws IOException {
    String spec = "file:" + dir.resolve("huge.bin");
    long exabyte = 1L << 60;
    refused(spec, () -> FileIoEngine.open(spec, exabyte, SEGMENT, FileEngineOptions.DEFAULTS), "more bytes");
    open(spec).close(); // the refused start left no lock behind
  }

  @Test
  void mmapRefusesDirectIo() {
    String spec = "mmap:" + dir.resolve("cache.bin");
    refused(spec, () -> MmapIoEngine.open(spec, CAPACITY, SEGMENT, FileEngineOptions.DEFAULTS.withPageCache(PageCache.BYPASSED)),
        "O_DIRECT");
  }
}
