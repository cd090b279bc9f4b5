package dev.blockcache.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.engine.CacheFileHeader;
import dev.blockcache.config.ConfigException;
import dev.blockcache.testing.Blocks;
import dev.blockcache.testing.Figures;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The file engines on a real, small file system: an 8 MiB tmpfs mounted for the test (skipped where the process may
 * not mount, i.e. not root). Forbids, on {@code file:}, {@code files:} and {@code mmap:}: a cache larger than the
 * file system accepted at start, or a refused start leaving a file; a sparse file planted at the cache path taken
 * over; and, once the file system is full and a hole has been punched into the cache file (so that writing needs
 * space there is none of — the {@code mmap:} write then faults with SIGBUS), an exception reaching a caller, a writer
 * thread dying, or the errors going uncounted.
 */
class SmallFileSystemTest {
  private static final long FS_BYTES = 8L << 20;
  private static final int[] SIZES = {5120, 9216, 17408, 66560};
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);

  @TempDir
  static Path base;
  private static Path fs;

  @BeforeAll
  static void mount() throws Exception {
    fs = Files.createDirectory(base.resolve("tmpfs"));
    Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=" + FS_BYTES, "tmpfs", fs.toString()) == 0,
        "cannot mount a tmpfs here (needs root)");
  }

  @AfterAll
  static void unmount() throws Exception {
    if (fs != null && Files.getFileStore(fs).type().equals("tmpfs")) {
      run("umount", fs.toString());
    }
  }

  @AfterEach
  void empty() throws IOException {
    try (Stream<Path> files = Files.list(fs)) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
  }

  /** The command's exit status, or -1 if it cannot be started (e.g. no {@code mount} on the machine). */
  private static int run(String... command) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException notStarted) {
      return -1;
    }
    p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", command) + " hung");
    return p.exitValue();
  }

  private static String spec(String scheme) {
    return scheme.equals("files")
        ? "files:" + fs.resolve("a.bin") + "," + fs.resolve("b.bin")
        : scheme + ":" + fs.resolve("a.bin");
  }

  private static List<Path> filesOf(String scheme) {
    return scheme.equals("files") ? List.of(fs.resolve("a.bin"), fs.resolve("b.bin")) : List.of(fs.resolve("a.bin"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "files", "mmap"})
  void aCacheLargerThanTheFileSystemIsRefusedAndLeavesNoFile(String scheme) throws IOException {
    BucketCacheConfig config = BucketCacheConfig.builder(spec(scheme), 16L << 20).bucketSizes(SIZES).build();
    ConfigException e = assertThrows(ConfigException.class, () -> BucketCache.create(config).close());
    assertEquals(BucketCacheKeys.IOENGINE, e.key());
    assertTrue(e.getMessage().contains("room for the cache"), e.getMessage());
    try (Stream<Path> left = Files.list(fs)) {
      assertEquals(List.of(), left.toList(), "a refused start left files");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "mmap"})
  void aSparseFilePlantedAtTheCachePathIsRefusedAndLeftAsItWas(String scheme) throws Exception {
    Path planted = fs.resolve("a.bin");
    assertEquals(0, run("truncate", "-s", String.valueOf(6L << 20), planted.toString()));
    BucketCacheConfig config = BucketCacheConfig.builder(spec(scheme), 4L << 20).bucketSizes(SIZES).build();
    ConfigException e = assertThrows(ConfigException.class, () -> BucketCache.create(config).close());
    assertTrue(e.getMessage().contains(CacheFileHeader.MAGIC_TEXT), e.getMessage());
    assertEquals(6L << 20, Files.size(planted));
    assertTrue(Files.getFileStore(fs).getUsableSpace() > FS_BYTES - (1L << 20), "the planted file was filled");
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "files", "mmap"})
  void writesIntoAHoleOnAFullFileSystemAreCountedErrorsNeverThrown(String scheme) throws Exception {
    BucketCacheConfig config = BucketCacheConfig.builder(spec(scheme), 3L << 20).bucketSizes(SIZES)
        .ioErrorsToleratedMs(Long.MAX_VALUE / 4).build();
    try (BucketCache cache = BucketCache.create(config)) {
      // Holes first (punching frees their space), then the filler takes all the space left.
      for (Path file : filesOf(scheme)) {
        long dataBytes = Files.size(file) - CacheFileHeader.LENGTH;
        if (dataBytes > 0) {
          assertEquals(0, run("fallocate", "-p", "-o", String.valueOf(CacheFileHeader.LENGTH), "-l",
              String.valueOf(dataBytes), file.toString()));
        }
      }
      fill(fs.resolve("filler"));
      long cached = 0;
      for (int i = 0; i < 200; i++) {
        BlockKey key = BlockKey.of("hfile", i * 8192L);
        ByteBuf block = Blocks.payload(key, 4000);
        try {
          cached += cache.cacheBlock(key, block, CacheOptions.of(BlockCategory.DATA)).isCached() ? 1 : 0;
        } finally {
          block.release();
        }
      }
      assertTrue(cache.awaitWritten(Duration.ofSeconds(60)), "a writer thread died");
      long served = 0;
      for (int i = 0; i < 200; i++) {
        ByteBuf block = cache.getBlock(BlockKey.of("hfile", i * 8192L), DATA);
        if (block != null) {
          assertTrue(Blocks.matches(BlockKey.of("hfile", i * 8192L), block), "a wrong payload");
          block.release();
          served++;
        }
      }
      long errors = cache.metrics().ioErrorCount();
      assertTrue(errors > 0, "writes into a hole on a full file system failed no write");
      assertFalse(cache.metrics().disabledByIoErrors());
      new Figures("SmallFileSystemTest", scheme).put("fsBytes", FS_BYTES).put("offered", 200).put("accepted", cached)
          .put("ioErrors", errors).put("served", served).put("exceptionsToCaller", 0).print();
    }
  }

  /** Writes zeros to {@code filler} until the file system is full. */
  private static void fill(Path filler) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocateDirect(64 * 1024);
    try (FileChannel ch = FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      while (true) {
        zeros.clear();
        ch.write(zeros);
      }
    } catch (IOException e) {
      if (Files.getFileStore(filler).getUsableSpace() > 64 * 1024) {
        throw e;
      }
    }
  }
}
