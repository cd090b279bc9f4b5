package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Who can read what the cache writes, and where it may write. Forbids: a cache file or an index checkpoint that
 * another user can read (block contents and the key of every cached block) — each must be mode 0600, even when a
 * file with wider permissions was there before; and a persistent path that is relative (it would depend on the
 * working directory), a directory, or under a missing directory being accepted at start instead of refused with an
 * error naming {@value BucketCacheKeys#PERSISTENT_PATH}.
 */
class CacheFileSecurityTest {
  @TempDir
  Path dir;

  private static String mode(Path file) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "files", "mmap"})
  void cacheFilesAndCheckpointsAreOwnerOnly(String scheme) throws IOException {
    Path a = dir.resolve("a.bin");
    Path b = dir.resolve("b.bin");
    Path index = dir.resolve("index");
    String spec = scheme.equals("files") ? "files:" + a + "," + b : scheme + ":" + a;
    // A cache file of ours whose mode someone widened: the restart narrows it again.
    BucketCaches.create(BucketCaches.config(spec, 8L << 20).build()).close();
    Files.setPosixFilePermissions(a, PosixFilePermissions.fromString("rw-rw-rw-"));
    Files.createFile(index, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
    Files.createFile(dir.resolve("index.tmp"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
    BucketCache cache = BucketCaches.create(BucketCaches.config(spec, 8L << 20).persistentPath(index.toString())
        .build());
    cache.start();
    cache.close();
    assertEquals("rw-------", mode(a), "cache file " + a);
    if (scheme.equals("files")) {
      assertEquals("rw-------", mode(b), "cache file " + b);
    }
    if (!scheme.equals("mmap")) {
      assertTrue(Files.size(index) > 0, "no checkpoint was written");
      assertEquals("rw-------", mode(index), "checkpoint " + index);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"relative", "directory", "missing-parent", "parent-is-a-file"})
  void aBadPersistentPathIsRefusedAtStartNamingTheKey(String kind) throws IOException {
    String path = switch (kind) {
      case "relative" -> "index";
      case "directory" -> Files.createDirectory(dir.resolve("index")).toString();
      case "missing-parent" -> dir.resolve("no/such/dir/index").toString();
      default -> Files.createFile(dir.resolve("plain")).resolve("index").toString();
    };
    BucketCacheConfig config = BucketCaches.config("file:" + dir.resolve("cache.bin"), 8L << 20)
        .persistentPath(path).build();
    ConfigException e = assertThrows(ConfigException.class, () -> {
      BucketCache cache = BucketCaches.create(config);
      try {
        cache.start();
      } finally {
        cache.close();
      }
    });
    assertEquals(BucketCacheKeys.PERSISTENT_PATH, e.key());
    assertEquals(path, e.value());
    // The refused start left no file lock behind: a cache on the same file starts.
    BucketCaches.create(BucketCaches.config("file:" + dir.resolve("cache.bin"), 8L << 20).build()).close();
  }
}
