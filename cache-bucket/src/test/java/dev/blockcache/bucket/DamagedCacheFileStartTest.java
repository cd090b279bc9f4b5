package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.engine.FileIoEngine;
import dev.blockcache.bucket.persist.IndexCheckpointReader.Status;
import dev.blockcache.config.ConfigException;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Pins the start over a cache file whose own header was damaged: where the cache's own checkpoint proves the file
 * ours, the cache starts cold over it (as HBase's does); where nothing proves it, or the file was never ours, the
 * start is refused and the file left as it was.
 */
class DamagedCacheFileStartTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);
  private static final long CAPACITY = 8L << 20;
  private static final int BLOCKS = 20;

  @TempDir
  Path dir;

  /** How the header was damaged. */
  enum Damage { TRUNCATED_TO_ZERO, OVERWRITTEN_AT_START }

  private Path cacheFile() {
    return dir.resolve("cache.bin");
  }

  private Path checkpoint() {
    return dir.resolve("index");
  }

  private BucketCacheConfig.Builder config() {
    return BucketCaches.config("file:" + cacheFile(), CAPACITY).persistentPath(checkpoint().toString());
  }

  private static BlockKey key(int i) {
    return BlockKey.of("hfile", i * 65_536L);
  }

  private static void put(BucketCache cache, BlockKey key) {
    ByteBuf source = Blocks.payload(key, 3000);
    try {
      assertEquals(CacheResult.CACHED, cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA)));
    } finally {
      source.release();
    }
    BucketCaches.drain(cache);
  }

  /** A cache that cached {@link #BLOCKS} blocks and closed: its file and its final checkpoint are on disk. */
  private void closedCacheWithCheckpoint() {
    try (BucketCache cache = BucketCaches.started(config().build())) {
      for (int i = 0; i < BLOCKS; i++) {
        put(cache, key(i));
      }
    }
    assertTrue(Files.exists(checkpoint()), "the close writes a checkpoint");
  }

  private static void damage(Path file, Damage damage) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      if (damage == Damage.TRUNCATED_TO_ZERO) {
        channel.truncate(0);
      } else {
        byte[] junk = new byte[512];
        new Random(3).nextBytes(junk);
        channel.write(ByteBuffer.wrap(junk), 0);
      }
    }
    assertTrue(FileIoEngine.headerDamaged(file));
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void aDamagedFileThatItsCheckpointProvesOursStartsCold(Damage damage) throws IOException {
    closedCacheWithCheckpoint();
    damage(cacheFile(), damage);

    try (BucketCache cache = BucketCaches.started(config().build())) {
      assertEquals(0, cache.blockCount(), "cold: nothing of the damaged file is served");
      assertEquals(Status.MISSING, cache.persistence().restored().status(), "the checkpoint went with the file");
      assertNull(cache.getBlock(key(0), DATA));
      assertFalse(FileIoEngine.headerDamaged(cacheFile()), "a fresh file with our header");
      put(cache, key(BLOCKS));
      ByteBuf block = cache.getBlock(key(BLOCKS), DATA);
      assertNotNull(block);
      Blocks.verify(key(BLOCKS), 3000, block);
      block.release();
    }
  }

  @Test
  void aDamagedFileWithoutAPersistentPathStaysRefusedAndUntouched() throws IOException {
    closedCacheWithCheckpoint();
    damage(cacheFile(), Damage.OVERWRITTEN_AT_START);
    byte[] before = Files.readAllBytes(cacheFile());

    BucketCacheConfig noProof = BucketCaches.config("file:" + cacheFile(), CAPACITY).build();
    ConfigException e = assertThrows(ConfigException.class, () -> BucketCache.create(noProof));

    assertEquals(BucketCacheKeys.IOENGINE, e.key());
    assertArrayEquals(before, Files.readAllBytes(cacheFile()));
  }

  @Test
  void aDamagedFileWhoseCheckpointIsDamagedOrOfAnotherConfigurationStaysRefused() throws IOException {
    closedCacheWithCheckpoint();
    damage(cacheFile(), Damage.OVERWRITTEN_AT_START);
    byte[] before = Files.readAllBytes(cacheFile());
    byte[] index = Files.readAllBytes(checkpoint());

    BucketCacheConfig otherCapacity = config().capacity(2 * CAPACITY).build();
    assertThrows(ConfigException.class, () -> BucketCache.create(otherCapacity));
    assertArrayEquals(before, Files.readAllBytes(cacheFile()));
    assertArrayEquals(index, Files.readAllBytes(checkpoint()), "another configuration's checkpoint is left alone");

    index[index.length / 2] ^= 1; // one bit of a record: the CRC32C no longer matches
    Files.write(checkpoint(), index);
    assertThrows(ConfigException.class, () -> BucketCache.create(config().build()));
    assertArrayEquals(before, Files.readAllBytes(cacheFile()));
  }

  @Test
  void aForeignFileStaysRefusedAndUntouchedEvenWithAPersistentPath() throws IOException {
    byte[] foreign = new byte[64 << 10];
    new Random(11).nextBytes(foreign);
    Files.write(cacheFile(), foreign);

    ConfigException e = assertThrows(ConfigException.class, () -> BucketCache.create(config().build()));

    assertEquals(BucketCacheKeys.IOENGINE, e.key());
    assertArrayEquals(foreign, Files.readAllBytes(cacheFile()));
  }
}
