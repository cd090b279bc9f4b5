package dev.blockcache.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The reference counting every block view shares, on a heap view (plain final release) and an owned view (CAS). */
class RefCountedBufTest {
  private static final byte[] BYTES = {1, 2, 3, 4};

  @Test
  void aHeapViewReleasedOnceIsClosedAndRefusesASecondRelease() {
    ByteBuf view = BlockBuf.ofHeap(BYTES, 0, BYTES.length);
    assertEquals(1, view.refCnt());
    assertTrue(view.release());
    assertEquals(0, view.refCnt());
    assertThrows(IllegalReferenceCountException.class, () -> view.getByte(0));
    assertThrows(IllegalReferenceCountException.class, view::release);
    assertThrows(IllegalReferenceCountException.class, view::retain);
  }

  @Test
  void aRetainedViewNeedsEveryReferenceReleased() {
    ByteBuf view = BlockBuf.ofHeap(BYTES, 0, BYTES.length);
    view.retain(2);
    assertFalse(view.release(2));
    assertEquals(3, view.getByte(2));
    assertThrows(IllegalReferenceCountException.class, () -> view.release(2));
    assertEquals(1, view.refCnt());
    assertTrue(view.release(1));
    ByteBuf other = BlockBuf.ofHeap(BYTES, 0, 1);
    assertThrows(IllegalArgumentException.class, () -> other.release(0));
    assertThrows(IllegalArgumentException.class, () -> other.retain(-1));
    assertTrue(other.release());
  }

  @Test
  void threadsReleasingSharedReferencesDeallocateOnceAfterTheLastRead() throws InterruptedException {
    for (int round = 0; round < 2_000; round++) {
      AtomicInteger told = new AtomicInteger();
      AtomicInteger readsAfterRelease = new AtomicInteger();
      ViewOwner owner = token -> told.incrementAndGet();
      ByteBuf owned = BlockBuf.of(Unpooled.wrappedBuffer(BYTES), 0, BYTES.length, owner, 7);
      ByteBuf heap = BlockBuf.ofHeap(BYTES, 0, BYTES.length);
      int holders = 3;
      owned.retain(holders - 1);
      heap.retain(holders - 1);
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < holders; t++) {
        Thread thread = new Thread(() -> {
          awaitQuietly(start);
          if (owned.getByte(3) != 4 || heap.getByte(3) != 4) {
            readsAfterRelease.incrementAndGet();
          }
          owned.release();
          heap.release();
        });
        thread.start();
        threads.add(thread);
      }
      start.countDown();
      for (Thread thread : threads) {
        thread.join();
      }
      assertEquals(1, told.get(), "round " + round);
      assertEquals(0, readsAfterRelease.get());
      assertEquals(0, owned.refCnt());
      assertEquals(0, heap.refCnt());
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
