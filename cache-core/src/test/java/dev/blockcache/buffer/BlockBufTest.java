package dev.blockcache.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlockBufTest {
  private final ByteBuf backing = Unpooled.wrappedBuffer(new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13});
  private final List<Long> released = new ArrayList<>();
  private final ViewOwner owner = released::add;

  @Test
  void viewShowsItsRegionOnly() {
    BlockBuf view = BlockBuf.of(backing, 4, 8, owner, 42);
    try {
      assertEquals(8, view.readableBytes());
      assertEquals(4, view.getByte(0));
      assertEquals(0x04050607, view.getInt(0));
      assertEquals(0x0405060708090A0BL, view.getLong(0));
      byte[] out = new byte[8];
      view.getBytes(0, out);
      assertEquals(11, out[7]);
      assertThrows(IndexOutOfBoundsException.class, () -> view.getByte(8));
      ByteBuffer nio = view.nioBuffer();
      assertTrue(nio.isReadOnly());
      assertEquals(8, nio.remaining());
      assertEquals(4, nio.get(0));
    } finally {
      view.release();
    }
  }

  @Test
  void ownerIsToldOnceWhenTheLastReferenceGoes() {
    BlockBuf view = BlockBuf.of(backing, 0, 4, owner, 7);
    view.retain();
    ByteBuf slice = view.retainedSlice(1, 2);
    assertFalse(view.release());
    assertFalse(view.release());
    assertTrue(released.isEmpty());
    assertEquals(1, slice.getByte(0));
    assertTrue(slice.release());
    assertEquals(List.of(7L), released);
    assertEquals(0, view.refCnt());
    assertThrows(IllegalReferenceCountException.class, () -> view.getByte(0));
    assertThrows(IllegalReferenceCountException.class, view::release);
    assertEquals(List.of(7L), released);
  }

  @Test
  void everyMutatorIsRefused() {
    BlockBuf view = BlockBuf.of(backing, 0, 14, null, 0);
    try {
      assertThrows(ReadOnlyBufferException.class, () -> view.setByte(0, 1));
      assertThrows(ReadOnlyBufferException.class, () -> view.setInt(0, 1));
      assertThrows(ReadOnlyBufferException.class, () -> view.setLong(0, 1));
      assertThrows(ReadOnlyBufferException.class, () -> view.setBytes(0, new byte[2]));
      assertThrows(ReadOnlyBufferException.class, () -> view.setBytes(0, ByteBuffer.allocate(2)));
      ByteBuf source = Unpooled.buffer(2).writeZero(2);
      try {
        assertThrows(ReadOnlyBufferException.class, () -> view.setBytes(0, source));
      } finally {
        source.release();
      }
      assertThrows(ReadOnlyBufferException.class, view::discardReadBytes);
      assertThrows(ReadOnlyBufferException.class, () -> view.capacity(20));
      assertThrows(ReadOnlyBufferException.class, view::array);
      assertThrows(ReadOnlyBufferException.class, () -> view.slice(0, 4).setByte(0, 1));
      assertThrows(ReadOnlyBufferException.class, () -> view.duplicate().setByte(0, 1));
      assertThrows(RuntimeException.class, () -> view.writeByte(1));
      assertNull(view.unwrap());
      assertEquals(0, backing.getByte(0));
    } finally {
      view.release();
    }
  }

  @Test
  void copyIsWritableAndIndependent() {
    BlockBuf view = BlockBuf.of(backing, 2, 4, null, 0);
    ByteBuf copy = view.copy();
    try {
      copy.setByte(0, 99);
      assertEquals(2, view.getByte(0));
      assertEquals(99, copy.getByte(0));
    } finally {
      copy.release();
      view.release();
    }
  }

  @Test
  void regionOutsideTheBackingIsRejected() {
    assertThrows(IndexOutOfBoundsException.class, () -> BlockBuf.of(backing, 10, 5, null, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> BlockBuf.of(backing, -1, 2, null, 0));
  }
}
