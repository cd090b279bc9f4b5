package dev.blockcache.minidb;

import static dev.blockcache.minidb.BlockFileLayout.ROW_SIZE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.combined.CombinedBlockCache;
import dev.blockcache.config.LruConfig;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.minidb.BlockFileReader.IndexMode;
import dev.blockcache.minidb.BlockFileReader.ReadMode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockFileReaderTest {
  @TempDir Path dir;

  private static void assertRow(long id, byte[] row) {
    assertEquals(id, ByteBuffer.wrap(row).getLong(), "row id");
    for (int i = 8; i < ROW_SIZE; i++) {
      assertEquals(BlockFileLayout.fillerByte(id, i), row[i], "row " + id + " byte " + i);
    }
  }

  @Test
  void everyRowRoundTripsFromFileAt4KAnd64KBlocks() throws IOException {
    for (int blockSize : new int[] {4096, 65536}) {
      Path file = dir.resolve("rows-" + blockSize);
      BlockFileWriter.write(file, 1000, blockSize, 1); // 1000 rows: the last block is partial at both sizes
      try (BlockFileReader reader = BlockFileReader.open(file, null, ReadMode.VERIFY_CHECKSUMS)) {
        assertEquals(1000, reader.rowCount());
        assertEquals((1000 + blockSize / ROW_SIZE - 1) / (blockSize / ROW_SIZE), reader.blockCount());
        byte[] row = new byte[ROW_SIZE];
        for (long id = 0; id < 1000; id++) {
          assertTrue(reader.readRow(id, row), "row " + id);
          assertRow(id, row);
        }
        assertFalse(reader.readRow(1000, row), "past the last row");
        assertFalse(reader.readRow(-1, row), "before the first row");
      }
    }
  }

  @Test
  void indexFindsTheBlockHoldingEachRow() throws IOException {
    Path file = dir.resolve("index");
    BlockFileWriter.write(file, 100, 4096, 3); // 4 rows per block: block b holds ids 12b .. 12b+9
    try (BlockFileReader reader = BlockFileReader.open(file, null, ReadMode.SKIP_CHECKSUMS)) {
      assertEquals(25, reader.blockCount());
      assertEquals(0, reader.blockOf(0));
      assertEquals(0, reader.blockOf(11));
      assertEquals(1, reader.blockOf(12));
      assertEquals(24, reader.blockOf(297));
      assertEquals(24, reader.blockOf(10_000));
      assertEquals(-1, reader.blockOf(-5));
    }
  }

  @Test
  void gapsBetweenRowsAreAbsentAndTheBloomRejectsMostOfThem() throws IOException {
    Path file = dir.resolve("gaps");
    BlockFileWriter.write(file, 10_000, 4096, 2); // even ids only
    try (BlockFileReader reader = BlockFileReader.open(file, null, ReadMode.VERIFY_CHECKSUMS)) {
      byte[] row = new byte[ROW_SIZE];
      int bloomNegatives = 0;
      for (long odd = 1; odd < 20_000; odd += 2) {
        assertFalse(reader.readRow(odd, row), "odd id " + odd);
        if (!reader.mightContain(odd)) {
          bloomNegatives++;
        }
      }
      for (long even = 0; even < 20_000; even += 2) {
        assertTrue(reader.mightContain(even), "bloom has no false negatives: " + even);
      }
      assertTrue(bloomNegatives > 9_500, "bloom rejected only " + bloomNegatives + " of 10000 absent ids");
    }
  }

  @Test
  void aFlippedByteIsDetectedOnVerifiedReadsAndNeverCached() throws IOException {
    Path file = dir.resolve("corrupt");
    BlockFileWriter.write(file, 64, 4096, 1);
    long block1 = BlockFileLayout.onDiskLength(4096);
    flipByte(file, block1 + 700); // row 4 (first of block 1), chunk 1
    byte[] row = new byte[ROW_SIZE];
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(1 << 20).build());
        BlockFileReader reader = BlockFileReader.open(file, cache, ReadMode.VERIFY_CHECKSUMS)) {
      assertTrue(reader.readRow(0, row), "block 0 is intact");
      CorruptBlockException e = assertThrows(CorruptBlockException.class, () -> reader.readRow(5, row));
      assertTrue(e.getMessage().contains("offset " + block1) && e.getMessage().contains("chunk 1"), e.getMessage());
      assertEquals(1, cache.blockCount(), "only the intact block is cached");
    }
    try (BlockFileReader unverified = BlockFileReader.open(file, null, ReadMode.SKIP_CHECKSUMS)) {
      assertTrue(unverified.readRow(4, row), "without verification the corrupt row is served");
      assertEquals(4, ByteBuffer.wrap(row).getLong());
    }
  }

  @Test
  void cachedBlocksServeLaterReadsWithTheSameBytes() throws IOException {
    Path file = dir.resolve("cached");
    BlockFileWriter.write(file, 256, 65536, 1);
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(8 << 20).build());
        BlockFileReader reader = BlockFileReader.open(file, cache, ReadMode.VERIFY_CHECKSUMS)) {
      byte[] row = new byte[ROW_SIZE];
      for (long id = 0; id < 256; id++) {
        assertTrue(reader.readRow(id, row));
      }
      assertEquals(4, cache.blockCount());
      long missesAfterLoad = cache.stats().missCount();
      for (long id = 255; id >= 0; id--) {
        assertTrue(reader.readRow(id, row));
        assertRow(id, row);
      }
      assertEquals(missesAfterLoad, cache.stats().missCount(), "second pass is served from the cache");
    }
  }

  @Test
  void leafIndexBlocksGoThroughTheCacheAndDataBlocksToTheDataTier() throws IOException {
    Path file = dir.resolve("leaves");
    int blocks = 2 * BlockFileReader.LEAF_ENTRIES + 10; // two full leaves and a short third
    BlockFileWriter.write(file, blocks * 4L, 4096, 1);
    try (CombinedBlockCache cache = new CombinedBlockCache(new LruBlockCache(LruConfig.builder(1 << 20).build()),
            new LruBlockCache(LruConfig.builder(8 << 20).build()));
        BlockFileReader reader = BlockFileReader.open(file, cache, ReadMode.VERIFY_CHECKSUMS,
            IndexMode.LEAVES_IN_CACHE)) {
      byte[] row = new byte[ROW_SIZE];
      for (long id = blocks * 4L - 1; id >= 0; id--) {
        assertTrue(reader.readRow(id, row));
        assertRow(id, row);
      }
      assertEquals(3, cache.l1().blockCount(), "three leaf index blocks in the L1");
      assertEquals(blocks, cache.l2().blockCount(), "every data block in the L2");
      assertEquals(3, cache.l1Stats().missCount());
      assertEquals(blocks * 4L - 3, cache.l1Stats().hitCount());
    }
    assertThrows(IllegalArgumentException.class,
        () -> BlockFileReader.open(file, null, ReadMode.VERIFY_CHECKSUMS, IndexMode.LEAVES_IN_CACHE));
  }

  private static void flipByte(Path file, long position) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      ch.read(one, position);
      one.put(0, (byte) ~one.get(0));
      ch.write(one.rewind(), position);
    }
  }
}
