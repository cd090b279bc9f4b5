package dev.blockcache.jmh.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.blockcache.api.BlockKey;
import org.junit.jupiter.api.Test;

class ScaleKeysTest {
  private static final int BLOCK = 64 * 1024;
  private static final long PER_FILE = ScaleKeys.FILE_BYTES / BLOCK;

  @Test
  void keysFillOneFileOfOneGibibyteBeforeTheNext() {
    ScaleKeys keys = new ScaleKeys(BLOCK, 3 * PER_FILE);
    assertEquals(3, keys.files());
    BlockKey first = keys.key(0);
    BlockKey last = keys.key(PER_FILE - 1);
    BlockKey next = keys.key(PER_FILE);
    assertSame(first.file(), last.file());
    assertEquals(0, first.offset());
    assertEquals(ScaleKeys.FILE_BYTES - BLOCK, last.offset());
    assertNotEquals(first.file(), next.file());
    assertEquals(0, next.offset());
    assertEquals(32, next.file().length());
  }

  @Test
  void aCellCoversTwiceItsBlocksAndMore() {
    ScaleCell cell = new ScaleCell(1 << 20, BLOCK, ScaleCell.Engine.HEADERS, null);
    ScaleKeys keys = cell.keys();
    assertEquals((2L * (1 << 20) + (64L << 20) + PER_FILE - 1) / PER_FILE, keys.files());
  }
}
