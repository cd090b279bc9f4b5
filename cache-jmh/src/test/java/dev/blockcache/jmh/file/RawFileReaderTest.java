package dev.blockcache.jmh.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Both read shapes of the raw baseline read every byte they promise, at every block of the file. */
class RawFileReaderTest {
  private static final int BLOCKS = 64;

  @TempDir
  Path dir;

  @Test
  void alignedReadsReadWholeBlocks() throws IOException {
    for (int blockSize : new int[] {4096, 65536}) {
      Path file = dir.resolve("aligned-" + blockSize);
      RawFileReader reader = RawFileReader.aligned(file, BLOCKS, blockSize, false);
      try {
        assertEquals((long) BLOCKS * blockSize, Files.size(file));
        for (int i = 0; i < BLOCKS; i++) {
          assertEquals(blockSize, reader.read(i), "block " + i);
        }
      } finally {
        reader.close();
      }
    }
  }

  @Test
  void slotShapedReadsReadHeaderAndBlockAtItemStrides() throws IOException {
    int header = CacheFileReader.headerLength();
    for (int blockSize : new int[] {4096, 65536}) {
      int item = CacheFileReader.itemSize(blockSize);
      assertEquals(blockSize + 1024, item, "the default size class of a " + blockSize + "-byte block");
      Path file = dir.resolve("slots-" + blockSize);
      RawFileReader reader = RawFileReader.slotShaped(file, BLOCKS, blockSize, header, item);
      try {
        assertEquals((long) BLOCKS * item, Files.size(file));
        for (int i = 0; i < BLOCKS; i++) {
          assertEquals(header + blockSize, reader.read(i), "block " + i);
        }
      } finally {
        reader.close();
      }
    }
  }

  @Test
  void aSlotThatCannotHoldHeaderAndBlockIsRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> RawFileReader.slotShaped(dir.resolve("small"), BLOCKS, 4096, 64, 4096));
  }
}
