package dev.blockcache.bucket.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
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
