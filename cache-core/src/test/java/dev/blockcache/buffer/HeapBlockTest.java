package dev.blockcache.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.blockcache.api.BlockCategory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** {@link HeapBlock#copyOf} copies exactly the readable bytes, whatever backs the source, and leaves it alone. */
class HeapBlockTest {
  private static byte[] numbered(int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return b;
  }

  private static byte[] contents(HeapBlock block) {
    ByteBuf view = block.newView();
    try {
      byte[] out = new byte[view.readableBytes()];
      view.getBytes(view.readerIndex(), out);
      return out;
    } finally {
      view.release();
    }
  }

  private static void assertCopies(ByteBuf source, byte[] expected) {
    int readerIndex = source.readerIndex();
    HeapBlock copy = HeapBlock.copyOf(source, BlockCategory.DATA);
    assertArrayEquals(expected, contents(copy));
    assertEquals(expected.length, copy.length());
    assertEquals(readerIndex, source.readerIndex(), "the source's reader index does not move");
    assertEquals(1, source.refCnt(), "the source's reference count does not change");
    source.setByte(source.readerIndex(), source.getByte(source.readerIndex()) + 1);
    assertArrayEquals(expected, contents(copy), "the copy does not share the source's memory");
    source.release();
  }

  @Test
  void copiesTheReadableBytesOfAnArrayBackedSliceAtAnOffset() {
    byte[] all = numbered(10_000);
    ByteBuf wrapped = Unpooled.wrappedBuffer(all, 100, 9_000); // array offset 100
    wrapped.readerIndex(50).writerIndex(8_050);
    assertCopies(wrapped, Arrays.copyOfRange(all, 150, 8_150));
  }

  @Test
  void copiesTheReadableBytesOfADirectBuffer() {
    byte[] all = numbered(5_000);
    ByteBuf direct = Unpooled.directBuffer(5_000).writeBytes(all);
    direct.readerIndex(17);
    assertCopies(direct, Arrays.copyOfRange(all, 17, 5_000));
  }

  @Test
  void copiesTheReadableBytesOfACompositeBuffer() {
    byte[] all = numbered(6_000);
    CompositeByteBuf composite = Unpooled.compositeBuffer();
    composite.addComponent(true, Unpooled.wrappedBuffer(Arrays.copyOfRange(all, 0, 2_500)));
    composite.addComponent(true, Unpooled.directBuffer(3_500).writeBytes(all, 2_500, 3_500));
    composite.readerIndex(3);
    assertCopies(composite, Arrays.copyOfRange(all, 3, 6_000));
  }

  @Test
  void aViewReadsEveryValueFromTheArrayAsTheWrappedBufferDoes() {
    byte[] bytes = numbered(67);
    bytes[5] = (byte) 0x80; // sign bits in the middle of multi-byte values
    bytes[20] = (byte) 0xFF;
    ByteBuf source = Unpooled.wrappedBuffer(bytes);
    HeapBlock block = HeapBlock.copyOf(source, BlockCategory.DATA);
    ByteBuf view = block.newView();
    try {
      for (int i = 0; i < bytes.length; i++) {
        assertEquals(source.getByte(i), view.getByte(i), "byte at " + i);
        if (i + 4 <= bytes.length) {
          assertEquals(source.getInt(i), view.getInt(i), "int at " + i);
          assertEquals(source.getIntLE(i), view.getIntLE(i), "intLE at " + i);
          assertEquals(source.getShort(i), view.getShort(i), "short at " + i);
        }
        if (i + 8 <= bytes.length) {
          assertEquals(source.getLong(i), view.getLong(i), "long at " + i);
          assertEquals(source.getLongLE(i), view.getLongLE(i), "longLE at " + i);
        }
      }
      assertEquals(source.getInt(0), view.readInt());
      assertEquals(source.getLong(4), view.readLong());
    } finally {
      view.release();
      source.release();
    }
    block.read(lent -> {
      for (int i = 0; i + 8 <= bytes.length; i++) {
        assertEquals(bytes[i], lent.getByte(i));
        assertEquals(Unpooled.wrappedBuffer(bytes).getLong(i), lent.getLong(i));
      }
    });
  }

  @Test
  void keepOrCopyKeepsTheArrayOfAnUnpooledHeapBuffer() {
    byte[] array = numbered(4_129);
    ByteBuf wrapped = Unpooled.wrappedBuffer(array).readerIndex(33); // a header ahead of the block
    HeapBlock block = HeapBlock.keepOrCopy(wrapped, BlockCategory.DATA);
    assertEquals(1, wrapped.refCnt(), "keepOrCopy leaves the release to its caller");
    wrapped.release();
    assertEquals(4_096, block.length());
    assertEquals(4_129 + 100, block.heapSize(100), "the kept array is accounted whole");
    array[33] = 42; // only a test writes after a hand-over: it shows that the array was kept, not copied
    assertEquals(42, contents(block)[0]);
    assertArrayEquals(Arrays.copyOfRange(array, 33, 4_129), contents(block));
  }

  @Test
  void keepOrCopyCopiesWhatItMayNotKeep() {
    byte[] mostlyUnread = numbered(10_000);
    ByteBuf sparse = Unpooled.wrappedBuffer(mostlyUnread).readerIndex(5_000);
    HeapBlock fromSparse = HeapBlock.keepOrCopy(sparse, BlockCategory.DATA);
    sparse.release();
    assertEquals(5_000 + 100, fromSparse.heapSize(100), "half an array is copied, not kept");

    byte[] bytes = numbered(8_192);
    ByteBuf pooled = io.netty.buffer.PooledByteBufAllocator.DEFAULT.heapBuffer(8_192).writeBytes(bytes);
    HeapBlock fromPool = HeapBlock.keepOrCopy(pooled, BlockCategory.DATA);
    pooled.setByte(0, 0); // the pool's memory may be written again
    pooled.release();
    assertArrayEquals(bytes, contents(fromPool));

    ByteBuf direct = Unpooled.directBuffer(8_192).writeBytes(bytes);
    HeapBlock fromDirect = HeapBlock.keepOrCopy(direct, BlockCategory.DATA);
    direct.release();
    assertArrayEquals(bytes, contents(fromDirect));
  }

  @Test
  void aViewOfAKeptRegionReadsOnlyThatRegion() {
    byte[] array = numbered(1_000);
    ByteBuf wrapped = Unpooled.wrappedBuffer(array).readerIndex(100);
    HeapBlock block = HeapBlock.keepOrCopy(wrapped, BlockCategory.DATA);
    wrapped.release();
    ByteBuf view = block.newView();
    try {
      assertEquals(900, view.readableBytes());
      assertEquals(Unpooled.wrappedBuffer(array).getLong(100), view.getLong(0));
      assertEquals(Unpooled.wrappedBuffer(array).getShortLE(998), view.getShortLE(898));
      assertEquals(Unpooled.wrappedBuffer(array).getUnsignedMedium(500), view.getUnsignedMedium(400));
      java.nio.ByteBuffer nio = view.nioBuffer(0, 10);
      assertEquals(array[100], nio.get(0));
      ByteBuf copy = view.copy(890, 10);
      assertEquals(array[990], copy.getByte(0));
      copy.release();
      org.junit.jupiter.api.Assertions.assertThrows(IndexOutOfBoundsException.class, () -> view.getByte(900));
    } finally {
      view.release();
    }
  }
}
