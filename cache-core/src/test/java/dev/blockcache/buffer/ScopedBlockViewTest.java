package dev.blockcache.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import java.nio.ReadOnlyBufferException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ScopedBlockViewTest {
  private final ByteBuf backing = Unpooled.wrappedBuffer(new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13});

  @Test
  void oneThreadReusesOneViewOverEachRegionAndClosesItAfterEachRead() {
    List<ByteBuf> seen = new ArrayList<>();
    ScopedBlockView.read(backing, 2, 4, view -> {
      seen.add(view);
      assertEquals(4, view.readableBytes());
      assertEquals(4, view.capacity());
      assertEquals(2, view.readByte());
      assertEquals(1, view.refCnt());
      assertTrue(view.isReadOnly());
      assertThrows(ReadOnlyBufferException.class, () -> view.setByte(0, 9));
    });
    assertThrows(IllegalReferenceCountException.class, () -> seen.get(0).getByte(0));
    ScopedBlockView.read(backing, 10, 3, view -> {
      seen.add(view);
      assertEquals(0, view.readerIndex()); // indexes reset per read
      assertEquals(3, view.readableBytes());
      assertEquals(12, view.getByte(2));
      assertThrows(IndexOutOfBoundsException.class, () -> view.getByte(3));
    });
    assertSame(seen.get(0), seen.get(1));
    assertEquals(0, seen.get(1).refCnt());
    assertEquals(1, backing.refCnt()); // the backing buffer's count is never touched
  }

  @Test
  void retainAndReleaseAreRefusedInsideTheCall() {
    ScopedBlockView.read(backing, 0, 14, view -> {
      assertThrows(IllegalStateException.class, view::retain);
      assertThrows(IllegalStateException.class, () -> view.retain(2));
      assertThrows(IllegalStateException.class, view::release);
      assertThrows(IllegalStateException.class, () -> view.release(1));
      assertThrows(IllegalStateException.class, view::retainedSlice);
      assertThrows(IllegalStateException.class, view::retainedDuplicate);
      assertEquals(1, view.refCnt());
    });
  }

  @Test
  void aNestedReadGetsAViewOfItsOwnThatIsClosedAfterItsCall() {
    AtomicReference<ByteBuf> inner = new AtomicReference<>();
    ScopedBlockView.read(backing, 0, 4, outer -> {
      ScopedBlockView.read(backing, 8, 4, nested -> {
        assertNotSame(outer, nested);
        inner.set(nested);
        assertEquals(8, nested.getByte(0));
      });
      assertEquals(0, outer.getByte(0));
      assertThrows(IllegalReferenceCountException.class, () -> inner.get().getByte(0));
    });
  }

  @Test
  void aRegionOutsideTheBackingIsRefused() {
    assertThrows(IndexOutOfBoundsException.class, () -> ScopedBlockView.read(backing, 10, 5, view -> { }));
    ScopedBlockView.read(backing, 0, 1, view -> assertEquals(0, view.getByte(0))); // the view is still usable
  }
}
