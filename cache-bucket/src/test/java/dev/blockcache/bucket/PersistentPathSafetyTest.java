package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins what a {@value BucketCacheKeys#PERSISTENT_PATH} may not do: be shared by two caches (each would discard the
 * other's checkpoints; the second is refused at start naming the key), or leave a partial {@code .tmp} behind when a
 * checkpoint fails.
 */
class PersistentPathSafetyTest {
  @TempDir
  Path dir;

  private BucketCacheConfig config(String file, Path index) {
    return BucketCaches.config("file:" + dir.resolve(file), 8L << 20).persistentPath(index.toString()).build();
  }

  @Test
  void aSecondCacheOnTheSamePersistentPathIsRefusedUntilTheFirstCloses() {
    Path index = dir.resolve("index");
    BucketCache first = BucketCaches.create(config("a.bin", index));
    first.start();
    ConfigException e = assertThrows(ConfigException.class, () -> BucketCache.create(config("b.bin", index)));
    assertEquals(BucketCacheKeys.PERSISTENT_PATH, e.key());
    assertEquals(index.toString(), e.value());
    assertTrue(e.getMessage().contains("locked by another cache"), e.getMessage());
    first.close();
    BucketCache second = BucketCaches.create(config("b.bin", index));
    second.start();
    second.close();
  }

  @Test
  void aFailedCheckpointLeavesNoTmpFileBehind() throws IOException {
    Path index = dir.resolve("index");
    BucketCache cache = BucketCaches.create(config("a.bin", index));
    cache.start();
    // The final checkpoint's rename fails: a non-empty directory now stands where the checkpoint goes.
    Files.deleteIfExists(index);
    Files.createDirectories(index.resolve("in-the-way"));
    cache.close();
    assertFalse(Files.exists(dir.resolve("index.tmp")), "a failed checkpoint left index.tmp behind");
    assertTrue(Files.isDirectory(index.resolve("in-the-way")));
  }
}
