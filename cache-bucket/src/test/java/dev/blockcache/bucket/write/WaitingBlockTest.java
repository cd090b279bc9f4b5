package dev.blockcache.bucket.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.bucket.format.BlockHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The holds of a waiting block: the pipeline's and one per view; the buffer goes with the last, never before. */
class WaitingBlockTest {
  private static ByteBuf pooled(int length) {
    ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(length);
    for (int i = 0; i < length; i++) {
      b.writeByte(i);
    }
    return b;
  }

  @Test
  void aTakenOverBufferIsReleasedByTheLastHoldOnly() {
    ByteBuf buffer = pooled(100);
    WaitingBlock block = WaitingBlock.takeOver(buffer, BlockCategory.DATA);
    ByteBuf view = block.tryView();
    assertNotNull(view);
    block.release(); // the pipeline is done with it; the view still reads it
    assertEquals(1, buffer.refCnt());
    assertEquals(99, view.getByte(99));
    view.release();
    assertEquals(0, buffer.refCnt());
  }

  @Test
  void noViewIsHandedOutOnceTheBufferIsReleased() {
    ByteBuf buffer = pooled(10);
    WaitingBlock block = WaitingBlock.takeOver(buffer, BlockCategory.DATA);
    block.release();
    assertEquals(0, buffer.refCnt());
    assertNull(block.tryView());
    AtomicInteger calls = new AtomicInteger();
    assertFalse(block.tryRead(b -> calls.incrementAndGet()));
    assertEquals(0, calls.get());
  }

  @Test
  void aScopedReadHoldsTheBytesForItsCallOnly() {
    ByteBuf buffer = pooled(10);
    WaitingBlock block = WaitingBlock.takeOver(buffer, BlockCategory.DATA);
    assertTrue(block.tryRead(b -> assertEquals(9, b.getByte(9))));
    block.release();
    assertEquals(0, buffer.refCnt());
  }

  @Test
  void aCopyLeavesTheCallersBufferAloneAndHasTheSameChecksum() {
    ByteBuf source = Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5}).readerIndex(1);
    WaitingBlock copy = WaitingBlock.copyOf(source, BlockCategory.INDEX);
    assertEquals(1, source.refCnt());
    assertEquals(1, source.readerIndex());
    assertEquals(4, copy.length());
    assertEquals(BlockHeader.crc32c(source, 1, 4), copy.crc32c());
    ByteBuf direct = pooled(5).readerIndex(1);
    WaitingBlock taken = WaitingBlock.takeOver(direct, BlockCategory.DATA);
    assertEquals(BlockHeader.crc32c(direct, 1, 4), taken.crc32c());
    taken.release();
    copy.release();
    source.release();
  }
}
