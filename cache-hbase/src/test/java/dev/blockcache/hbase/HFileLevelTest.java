package dev.blockcache.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.hbase.testing.TestCaches;
import java.io.DataInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.CacheStats;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.BloomFilter;
import org.apache.hadoop.hbase.util.BloomFilterFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * HBase's own HFile writer and reader over our L2 ({@link HBaseL2Cache} as the reader's only block cache): real
 * HFiles (FAST_DIFF-encoded data blocks, a ROW bloom filter, multi-level indexes at 4 KiB) written by
 * {@link StoreFileWriter} (HBase's {@code HFile.getWriterFactory} inside) and read back by {@code HFile.createReader}.
 * Proves, per block size and engine: every cell reads back byte-equal on the first pass (from disk, caching) and on
 * the second (every data block a hit in our L2, no new data miss); bloom chunks are served through the cache; blocks
 * cached on write are hits on the first read; evict-on-close removes the file's blocks (the iterator lists none of
 * them); the reader's pooled {@code ByteBuffAllocator} has every buffer back and neither netty leaks (both leak
 * checks run after each test); a persistent file L2 serves the blocks of a file cached on write after a restart
 * (the stored deserializer identifiers resolve again). Engines: offheap (zero-copy views), file (verified reads into pooled buffers) and heap
 * (copied onto the heap for HBase).
 */
class HFileLevelTest {
  private static final int ROWS = 6_000;
  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);
  private static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.UTF_8);
  private static final long TIMESTAMP = 1_000L;

  @TempDir
  java.nio.file.Path dir;

  private HBaseL2Cache cache;
  private ByteBuffAllocator allocator;

  @AfterEach
  void tearDown() {
    if (cache != null) {
      cache.shutdown();
    }
    if (allocator != null) {
      assertEquals(0, allocator.getUsedBufferCount(), "HBase pooled buffers still in use");
      allocator.clean();
    }
  }

  @ParameterizedTest(name = "{0} B blocks on {1}")
  @CsvSource({"65536, offheap", "4096, offheap", "65536, file", "4096, heap"})
  void everyCellReadsBackAndTheSecondPassIsServedByTheL2(int blockSize, String engine) throws IOException {
    Configuration conf = conf(engine);
    cache = TestCaches.ours(conf);
    FileSystem fs = FileSystem.getLocal(conf);
    Path file = new Path(dir.resolve("hfile-" + blockSize).toUri());
    write(conf, fs, file, blockSize, new CacheConfig(conf, null, null, ByteBuffAllocator.HEAP));
    CacheConfig cacheConf = new CacheConfig(conf, null, cache, allocator);

    HFile.Reader reader = HFile.createReader(fs, file, cacheConf, true, conf);
    CacheStats stats = cache.getStats();
    assertEquals(ROWS, scanAll(conf, reader));
    // The scanner's lookups of the next data block carry no expected type, so HBase counts them in the totals only.
    long firstMisses = stats.getMissCount();
    assertTrue(firstMisses > (blockSize == 4096 ? 100 : 5), "blocks read from disk: " + firstMisses);
    assertEquals(0, stats.getHitCount());
    TestCaches.drain(cache);
    assertEquals(firstMisses, cache.getBlockCount(), "every block read is cached");

    assertEquals(ROWS, scanAll(conf, reader));
    assertEquals(firstMisses, stats.getMissCount(), "the second pass missed");
    assertEquals(firstMisses, stats.getHitCount(), "every block of the second pass is an L2 hit");

    assertBloomServesEveryRow(reader);
    assertTrue(stats.getBloomChunkHitCount() + stats.getBloomChunkMissCount() > 0, "bloom chunks went through");

    String name = file.getName();
    assertTrue(blocksOf(name) >= firstMisses, "the iterator lists the file's blocks");
    reader.close(true);
    assertEquals(0, blocksOf(name), "evict-on-close left blocks of " + name);
  }

  @ParameterizedTest(name = "{0} B blocks")
  @CsvSource({"65536", "4096"})
  void blocksCachedOnWriteAreHitsOnTheFirstRead(int blockSize) throws IOException {
    Configuration conf = conf("offheap");
    conf.setBoolean(CacheConfig.CACHE_BLOCKS_ON_WRITE_KEY, true);
    conf.setBoolean(CacheConfig.CACHE_INDEX_BLOCKS_ON_WRITE_KEY, true);
    conf.setBoolean(CacheConfig.CACHE_BLOOM_BLOCKS_ON_WRITE_KEY, true);
    cache = TestCaches.ours(conf);
    FileSystem fs = FileSystem.getLocal(conf);
    Path file = new Path(dir.resolve("cow-" + blockSize).toUri());
    CacheConfig cacheConf = new CacheConfig(conf, null, cache, allocator);
    // The writer runs on the heap allocator: HBase's writer keeps one pooled buffer after close whatever the cache
    // (checked with its own LruBlockCache), which would hide the reader's accounting this test is about.
    write(conf, fs, file, blockSize, new CacheConfig(conf, null, cache, ByteBuffAllocator.HEAP));
    TestCaches.drain(cache);
    assertTrue(cache.getBlockCount() > 0, "nothing cached on write");

    HFile.Reader reader = HFile.createReader(fs, file, cacheConf, true, conf);
    CacheStats stats = cache.getStats();
    assertEquals(ROWS, scanAll(conf, reader));
    assertEquals(0, stats.getMissCount(), "a block cached on write missed");
    assertTrue(stats.getHitCount() > (blockSize == 4096 ? 100 : 5), "hits: " + stats.getHitCount());
    reader.close(true);
    assertEquals(0, blocksOf(file.getName()));
  }

  @Test
  void aPersistentFileL2ServesTheBlocksAfterARestart() throws IOException {
    Configuration conf = conf("file");
    conf.set("hbase.bucketcache.persistent.path", dir.resolve("l2.index").toString());
    conf.setBoolean(CacheConfig.CACHE_BLOCKS_ON_WRITE_KEY, true);
    cache = TestCaches.ours(conf);
    FileSystem fs = FileSystem.getLocal(conf);
    Path file = new Path(dir.resolve("warm").toUri());
    write(conf, fs, file, 65536, new CacheConfig(conf, null, cache, ByteBuffAllocator.HEAP));
    TestCaches.drain(cache);
    long cached = cache.getBlockCount();
    assertTrue(cached > 5, "cached on write: " + cached);
    cache.shutdown(); // writes the last index checkpoint

    cache = TestCaches.ours(conf);
    assertEquals(cached, cache.getBlockCount(), "blocks restored from the checkpoint");
    HFile.Reader reader = HFile.createReader(fs, file, new CacheConfig(conf, null, cache, allocator), true, conf);
    assertEquals(ROWS, scanAll(conf, reader));
    assertEquals(0, cache.getStats().getMissCount(), "a restored block missed");
    reader.close(true);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"offheap", "file"})
  void prefetchQuestionsAreAnsweredFromTheStoredBlocksWithoutCounting(String engine) throws IOException {
    Configuration conf = conf(engine);
    cache = TestCaches.ours(conf);
    FileSystem fs = FileSystem.getLocal(conf);
    Path file = new Path(dir.resolve("prefetch").toUri());
    write(conf, fs, file, 4096, new CacheConfig(conf, null, null, ByteBuffAllocator.HEAP));
    // The heap allocator: HBase's positional reads below keep one pooled buffer for the next block's header, which is
    // HBase's reader's and not what this test is about.
    HFile.Reader reader = HFile.createReader(fs, file, new CacheConfig(conf, null, cache, ByteBuffAllocator.HEAP),
        true, conf);
    assertEquals(ROWS, scanAll(conf, reader));
    TestCaches.drain(cache);
    CacheStats stats = cache.getStats();
    long hits = stats.getHitCount();
    long misses = stats.getMissCount();

    int dataBlocks = 0;
    long end = reader.getTrailer().getLoadOnOpenDataOffset();
    for (long offset = 0; offset < end;) {
      HFileBlock block = reader.readBlock(offset, -1, false, true, false, false, null, null);
      int onDisk = block.getOnDiskSizeWithHeader();
      boolean data = block.getBlockType().isData();
      block.release();
      if (data) {
        BlockCacheKey key = new BlockCacheKey(file.getName(), offset);
        assertEquals(Optional.of(true), cache.isAlreadyCached(key), "block at " + offset);
        assertEquals(Optional.of(onDisk), cache.getBlockSize(key), "on-disk size of the block at " + offset);
        dataBlocks++;
      }
      offset += onDisk;
    }
    assertTrue(dataBlocks > 5, "data blocks walked: " + dataBlocks);
    BlockCacheKey absent = new BlockCacheKey(file.getName(), end + 1);
    assertEquals(Optional.of(false), cache.isAlreadyCached(absent));
    assertEquals(Optional.empty(), cache.getBlockSize(absent));
    assertEquals(hits, stats.getHitCount(), "a prefetch question counted a hit");
    assertEquals(misses, stats.getMissCount(), "a prefetch question counted a miss");
    reader.close(true);
  }

  private Configuration conf(String engine) {
    String spec = "file".equals(engine) ? "file:" + dir.resolve("l2.cache") : engine;
    Configuration conf = TestCaches.conf(spec, 16);
    conf.setBoolean(ByteBuffAllocator.ALLOCATOR_POOL_ENABLED_KEY, true);
    conf.setInt(ByteBuffAllocator.MIN_ALLOCATE_SIZE_KEY, 0);
    allocator = ByteBuffAllocator.create(conf, true);
    return conf;
  }

  private static void write(Configuration conf, FileSystem fs, Path file, int blockSize, CacheConfig cacheConf)
      throws IOException {
    HFileContext context = new HFileContextBuilder().withBlockSize(blockSize)
        .withDataBlockEncoding(DataBlockEncoding.FAST_DIFF).withIncludesTags(false).build();
    StoreFileWriter writer = new StoreFileWriter.Builder(conf, cacheConf, fs).withFilePath(file)
        .withBloomType(BloomType.ROW).withFileContext(context).build();
    for (int i = 0; i < ROWS; i++) {
      writer.append(new KeyValue(row(i), FAMILY, QUALIFIER, TIMESTAMP, value(i)));
    }
    writer.close();
  }

  /** Reads every cell and checks it byte for byte; returns the number of cells. */
  private static int scanAll(Configuration conf, HFile.Reader reader) throws IOException {
    int n = 0;
    try (HFileScanner scanner = reader.getScanner(conf, true, false)) {
      assertTrue(scanner.seekTo());
      do {
        Cell cell = scanner.getCell();
        assertArrayEquals(row(n), CellUtil.cloneRow(cell), "row " + n);
        assertArrayEquals(FAMILY, CellUtil.cloneFamily(cell));
        assertArrayEquals(QUALIFIER, CellUtil.cloneQualifier(cell));
        assertEquals(TIMESTAMP, cell.getTimestamp());
        assertArrayEquals(value(n), CellUtil.cloneValue(cell), "value of row " + n);
        n++;
      } while (scanner.next());
    }
    return n;
  }

  private static void assertBloomServesEveryRow(HFile.Reader reader) throws IOException {
    DataInput meta = reader.getGeneralBloomFilterMetadata();
    BloomFilter bloom = BloomFilterFactory.createFromMeta(meta, reader);
    for (int i = 0; i < ROWS; i += 7) {
      byte[] row = row(i);
      assertTrue(bloom.contains(row, 0, row.length, null), "bloom lost row " + i);
    }
    byte[] absent = "absent-row".getBytes(StandardCharsets.UTF_8);
    assertFalse(bloom.contains(absent, 0, absent.length, null) && bloom.contains(row(ROWS), 0, row(ROWS).length,
        null), "a bloom that says yes to everything proves nothing");
  }

  private long blocksOf(String file) {
    long n = 0;
    for (Iterator<CachedBlock> it = cache.iterator(); it.hasNext();) {
      if (it.next().getFilename().equals(file)) {
        n++;
      }
    }
    return n;
  }

  static byte[] row(int i) {
    return String.format("row-%08d", i).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] value(int i) {
    byte[] v = new byte[100];
    long x = i * 0x9E3779B97F4A7C15L + 1;
    for (int j = 0; j < v.length; j++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      v[j] = (byte) x;
    }
    return v;
  }
}
