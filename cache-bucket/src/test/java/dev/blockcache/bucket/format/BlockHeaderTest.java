package dev.blockcache.bucket.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BlockHeaderTest {
  private static ByteBuf slotFor(BlockKey key, int length) {
    ByteBuf block = Blocks.payload(key, length);
    try {
      ByteBuf slot = Unpooled.buffer(BlockHeader.headerLength(key) + length + 8);
      slot.writeZero(8);
      BlockHeader.write(slot, key, BlockCategory.BLOOM, block);
      assertEquals(0, block.readerIndex());
      assertEquals(1, block.refCnt());
      return slot;
    } finally {
      block.release();
    }
  }

  @Test
  void aHeapBlocksOwnChecksumIsTheOneTheHeaderComputesOverAView() {
    BlockKey key = BlockKey.of("f", 7);
    ByteBuf source = Blocks.payload(key, 5000);
    try {
      HeapBlock heap = HeapBlock.copyOf(source, BlockCategory.DATA);
      ByteBuf view = heap.newView();
      try {
        assertEquals(BlockHeader.crc32c(view, 0, 5000), heap.crc32c());
      } finally {
        view.release();
      }
    } finally {
      source.release();
    }
  }

  @Test
  void putHeaderSetsTheBytesWriteHeaderAppends() {
    StringBuilder ascii = new StringBuilder();
    for (int n = 1; n <= 41; n++) {
      ascii.append((char) ('a' + n % 26));
      assertSameHeader(BlockKey.of(ascii.toString(), 77L * n));
    }
    assertSameHeader(BlockKey.of("région/cf/hfile-ü", 9));
    assertSameHeader(BlockKey.of("hfile-\u20ac-0123456789", 10)); // a 3-byte character after 6 ASCII ones
    assertSameHeader(BlockKey.of("0123456789abcdef\ud83d\ude00", 11)); // a 4-byte character after 16 ASCII ones
  }

  @Test
  void putHeaderRefusesANameLengthThatIsNotTheNamesUtf8Length() {
    ByteBuf slot = Unpooled.buffer(256);
    BlockKey ascii = BlockKey.of("hfile-1", 0);
    BlockKey accented = BlockKey.of("hfile-é", 0);
    assertThrows(IllegalArgumentException.class,
        () -> BlockHeader.putHeader(slot, 0, ascii, 8, BlockCategory.DATA, 10, 0));
    assertThrows(IllegalArgumentException.class,
        () -> BlockHeader.putHeader(slot, 0, accented, 7, BlockCategory.DATA, 10, 0));
    assertEquals(BlockHeader.FIXED_LENGTH + 8, BlockHeader.putHeader(slot, 0, accented, 8, BlockCategory.DATA, 10, 0));
  }

  private static void assertSameHeader(BlockKey key) {
    int length = BlockHeader.headerLength(key);
    assertEquals(BlockHeader.FIXED_LENGTH + key.file().getBytes(StandardCharsets.UTF_8).length, length, key.file());
    ByteBuf appended = Unpooled.buffer(length);
    BlockHeader.writeHeader(appended, key, BlockCategory.INDEX, 4096, 0x1234_5678);
    ByteBuf set = Unpooled.buffer(length + 16);
    set.writerIndex(length + 16);
    for (int i = 0; i < set.capacity(); i++) {
      set.setByte(i, 0x5A); // stale bytes a missed field would show
    }
    int nameLength = length - BlockHeader.FIXED_LENGTH;
    assertEquals(length, BlockHeader.putHeader(set, 16, key, nameLength, BlockCategory.INDEX, 4096, 0x1234_5678),
        key.file());
    assertEquals(appended, set.slice(16, length), key.file());
    assertEquals(0x5A5A_5A5A_5A5A_5A5AL, set.getLong(8), "bytes before the header untouched");
    assertEquals(length, BlockHeader.verifyKey(set, 16, key, 4096), key.file());
  }

  @Test
  void roundTripVerifiesKeyLengthAndChecksum() {
    BlockKey key = BlockKey.of("region/cf/hfile-0001", 123_456);
    ByteBuf slot = slotFor(key, 1000);
    int header = BlockHeader.verifyKey(slot, 8, key, 1000);
    assertEquals(BlockHeader.FIXED_LENGTH + key.file().length(), header);
    assertTrue(BlockHeader.verifyChecksum(slot, 8, header));
    assertEquals(BlockCategory.BLOOM, BlockHeader.category(slot, 8));
    Blocks.verify(key, 1000, slot.slice(8 + header, 1000));
  }

  @Test
  void anotherKeyOrLengthIsRefused() {
    BlockKey key = BlockKey.of("hfile-a", 4096);
    ByteBuf slot = slotFor(key, 100);
    assertEquals(-1, BlockHeader.verifyKey(slot, 8, BlockKey.of("hfile-b", 4096), 100));
    assertEquals(-1, BlockHeader.verifyKey(slot, 8, BlockKey.of("hfile-a", 0), 100));
    assertEquals(-1, BlockHeader.verifyKey(slot, 8, BlockKey.of("hfile-aa", 4096), 100));
    assertEquals(-1, BlockHeader.verifyKey(slot, 8, key, 99));
    assertEquals(-1, BlockHeader.verifyKey(slot, 0, key, 100));
  }

  @Test
  void nonAsciiNamesCompareByUtf8Bytes() {
    BlockKey key = BlockKey.of("région/ƒichier", 7);
    ByteBuf slot = slotFor(key, 10);
    assertTrue(BlockHeader.verifyKey(slot, 8, key, 10) > 0);
    assertEquals(-1, BlockHeader.verifyKey(slot, 8, BlockKey.of("région/ƒichieR", 7), 10));
  }

  @Test
  void aFlippedBlockByteFailsTheChecksum() {
    BlockKey key = BlockKey.of("f", 0);
    ByteBuf slot = slotFor(key, 500);
    int header = BlockHeader.verifyKey(slot, 8, key, 500);
    int at = 8 + header + 250;
    slot.setByte(at, slot.getByte(at) ^ 0x10);
    assertFalse(BlockHeader.verifyChecksum(slot, 8, header));
  }

  /** Pins the eight-bytes-at-a-time name compare: a difference at any position of any word or tail is a mismatch. */
  @Test
  void aNameDifferingInAnyOneCharacterIsRefusedAtEveryLength() {
    for (int length = 1; length <= 41; length++) {
      StringBuilder name = new StringBuilder();
      for (int i = 0; i < length; i++) {
        name.append((char) ('a' + i % 26));
      }
      BlockKey key = BlockKey.of(name.toString(), 42);
      ByteBuf slot = slotFor(key, 16);
      assertEquals(BlockHeader.FIXED_LENGTH + length, BlockHeader.verifyKey(slot, 8, key, 16), name.toString());
      for (int at = 0; at < length; at++) {
        StringBuilder other = new StringBuilder(name);
        other.setCharAt(at, 'Z');
        assertEquals(-1, BlockHeader.verifyKey(slot, 8, BlockKey.of(other.toString(), 42), 16), other.toString());
      }
    }
  }

  @Test
  void aNonAsciiCharacterAfterAnAsciiPrefixIsComparedByUtf8Bytes() {
    BlockKey key = BlockKey.of("region-0001/cf/hfile-é", 7);
    ByteBuf slot = slotFor(key, 10);
    assertTrue(BlockHeader.verifyKey(slot, 8, key, 10) > 0);
    assertEquals(-1, BlockHeader.verifyKey(slot, 8, BlockKey.of("region-0001/cf/hfile-è", 7), 10));
    assertEquals(-1, BlockHeader.verifyKey(slot, 8, BlockKey.of("region-0002/cf/hfile-é", 7), 10));
  }
}
