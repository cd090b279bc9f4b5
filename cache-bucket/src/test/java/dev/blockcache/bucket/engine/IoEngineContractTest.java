package dev.blockcache.bucket.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every IO engine does: round trips at any offset, bounds, stats, close, concurrent disjoint access. */
public abstract class IoEngineContractTest {
  protected static final long CAPACITY = 1L << 20;
  protected static final int SEGMENT = 64 * 1024;

  protected IoEngine engine;

  /** A new engine of {@code capacity} bytes in segments of {@code segmentSize}. */
  protected abstract IoEngine newEngine(long capacity, int segmentSize) throws IOException;

  @BeforeEach
  void open() throws IOException {
    engine = newEngine(CAPACITY, SEGMENT);
  }

  @AfterEach
  void closeEngine() {
    engine.close();
  }

  private static byte[] bytes(int length, long seed) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }

  private byte[] readBack(long offset, int length) throws IOException {
    ByteBuf buf = engine.read(offset, length);
    try {
      assertEquals(1, buf.refCnt());
      byte[] out = new byte[buf.readableBytes()];
      buf.readBytes(out);
      return out;
    } finally {
      buf.release();
    }
  }

  @Test
  void roundTripsAtRandomOffsetsIncludingAcrossSegments() throws IOException {
    Random random = new Random(42);
    for (int i = 0; i < 200; i++) {
      int length = 1 + random.nextInt(3 * SEGMENT);
      long offset = (long) (random.nextDouble() * (CAPACITY - length));
      byte[] data = bytes(length, i);
      ByteBuf src = Unpooled.wrappedBuffer(data);
      engine.write(offset, src);
      assertEquals(0, src.readerIndex(), "write moved the source's reader index");
      assertArrayEquals(data, readBack(offset, length));
    }
    byte[] edge = bytes(10, 7);
    engine.write(SEGMENT - 5, Unpooled.wrappedBuffer(edge));
    assertArrayEquals(edge, readBack(SEGMENT - 5, 10));
  }

  @Test
  void readIntoAppendsAtTheWriterIndexOfTheCallersBuffer() throws IOException {
    byte[] data = bytes(5000, 11);
    engine.write(SEGMENT - 100, Unpooled.wrappedBuffer(data));
    ByteBuf dst = io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(6000, 6000);
    try {
      dst.writeInt(0x5EED);
      engine.readInto(SEGMENT - 100, dst, 5000);
      assertEquals(1, dst.refCnt(), "the caller keeps its buffer");
      assertEquals(0x5EED, dst.readInt());
      byte[] out = new byte[5000];
      dst.readBytes(out);
      assertArrayEquals(data, out);
      dst.clear().writerIndex(2000);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> engine.readInto(0, dst, 4001));
      assertTrue(e.getMessage().contains("4001"), e.getMessage());
      assertThrows(IndexOutOfBoundsException.class, () -> engine.readInto(CAPACITY - 1, dst, 2));
      assertEquals(2000, dst.writerIndex(), "a refused read leaves the buffer alone");
    } finally {
      dst.release();
    }
  }

  @Test
  void outOfBoundsAccessNamesTheRange() {
    ByteBuf two = Unpooled.wrappedBuffer(new byte[2]);
    IndexOutOfBoundsException e =
        assertThrows(IndexOutOfBoundsException.class, () -> engine.write(CAPACITY - 1, two));
    assertTrue(e.getMessage().contains(String.valueOf(CAPACITY)), e.getMessage());
    assertThrows(IndexOutOfBoundsException.class, () -> engine.read(-1, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> engine.read(0, -1));
    assertThrows(IndexOutOfBoundsException.class, () -> engine.read(CAPACITY, 1));
  }

  @Test
  void statsCountOperationsAndBytes() throws IOException {
    engine.write(0, Unpooled.wrappedBuffer(new byte[100]));
    engine.write(1000, Unpooled.wrappedBuffer(new byte[50]));
    readBack(0, 30);
    EngineStats stats = engine.stats();
    assertEquals(2, stats.writes());
    assertEquals(150, stats.bytesWritten());
    assertEquals(1, stats.reads());
    assertEquals(30, stats.bytesRead());
    assertEquals(0, stats.errors());
  }

  @Test
  void segmentsShowWrittenBytesForMemoryEngines() throws IOException {
    if (!engine.isMemory()) {
      assertThrows(UnsupportedOperationException.class, () -> engine.segment(0));
      return;
    }
    byte[] data = bytes(300, 3);
    long offset = 3L * SEGMENT + 17;
    engine.write(offset, Unpooled.wrappedBuffer(data));
    ByteBuf segment = engine.segment(offset);
    byte[] seen = new byte[data.length];
    segment.getBytes((int) (offset % SEGMENT), seen);
    assertArrayEquals(data, seen);
  }

  @Test
  void segmentForWriteChecksTheRangeAndCountsTheWrite() {
    if (!engine.isMemory()) {
      assertThrows(UnsupportedOperationException.class, () -> engine.segmentForWrite(0, 1));
      return;
    }
    long offset = 2L * SEGMENT + 100;
    ByteBuf segment = engine.segmentForWrite(offset, 200);
    byte[] data = bytes(200, 4);
    segment.setBytes((int) (offset % SEGMENT), data);
    assertArrayEquals(data, readBackUnchecked(offset, 200));
    EngineStats stats = engine.stats();
    assertEquals(1, stats.writes());
    assertEquals(200, stats.bytesWritten());
    assertThrows(IndexOutOfBoundsException.class, () -> engine.segmentForWrite(3L * SEGMENT - 10, 11),
        "a range across a segment boundary");
    engine.segmentForWrite(3L * SEGMENT - 10, 10); // up to the boundary is fine
    assertThrows(IndexOutOfBoundsException.class, () -> engine.segmentForWrite(CAPACITY - 1, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> engine.segmentForWrite(-1, 1));
    engine.close();
    assertThrows(IllegalStateException.class, () -> engine.segmentForWrite(0, 1));
  }

  private byte[] readBackUnchecked(long offset, int length) {
    try {
      return readBack(offset, length);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void closeIsIdempotentAndLaterCallsFail() {
    engine.close();
    engine.close();
    assertTrue(engine.isClosed());
    assertThrows(IllegalStateException.class, () -> engine.read(0, 1));
    assertThrows(IllegalStateException.class, () -> engine.write(0, Unpooled.wrappedBuffer(new byte[1])));
  }

  @Test
  void concurrentWritersAndReadersOfDisjointRangesSeeTheirOwnBytes() throws Exception {
    int threads = 4;
    long share = CAPACITY / threads;
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long base = t * share;
      int id = t;
      Thread worker = new Thread(() -> {
        try {
          start.await();
          Random random = new Random(id);
          for (int i = 0; i < 300; i++) {
            int length = 1 + random.nextInt(8192);
            long offset = base + (long) (random.nextDouble() * (share - length));
            byte[] data = bytes(length, id * 1000L + i);
            engine.write(offset, Unpooled.wrappedBuffer(data));
            assertArrayEquals(data, readBack(offset, length));
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      });
      workers.add(worker);
      worker.start();
    }
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
  }
}
