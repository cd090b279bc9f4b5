package dev.blockcache.bucket.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.alloc.BucketAllocator;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Reuse, bounds and close of the file-get read buffers; buffers are netty buffers, so PARANOID sees any leak. */
class ReadBufferPoolTest {
  private static final int[] ITEMS = {1024, 4096, 256 * 1024};

  private static ReadBufferPool pool() {
    return new ReadBufferPool(new BucketAllocator(4L << 20, ITEMS));
  }

  @Test
  void aGivenBackBufferIsReusedEmptyAndSizedForItsClass() {
    ReadBufferPool pool = pool();
    ReadBufferPool.ReadBuffer a = pool.take(3000);
    assertEquals(4096, a.buffer().capacity());
    assertEquals(4096, a.buffer().maxCapacity());
    a.buffer().writeBytes(new byte[3000]);
    pool.giveBack(a);
    ReadBufferPool.ReadBuffer b = pool.take(4096);
    assertSame(a, b);
    assertEquals(0, b.buffer().readerIndex());
    assertEquals(0, b.buffer().writerIndex());
    ReadBufferPool.ReadBuffer other = pool.take(4096); // the shelf is empty again: a new buffer
    assertNotSame(b, other);
    ReadBufferPool.ReadBuffer small = pool.take(1);
    assertEquals(1024, small.buffer().capacity());
    assertThrows(IllegalArgumentException.class, () -> pool.take(256 * 1024 + 1));
    pool.giveBack(b);
    pool.giveBack(other);
    pool.giveBack(small);
    pool.close();
  }

  @Test
  void aFullShelfReleasesWhatIsGivenBackAndCloseReleasesTheRest() {
    ReadBufferPool pool = pool();
    int shelf = ReadBufferPool.shelfCapacity(4096);
    assertTrue(shelf >= 1 && shelf * 4096 <= ReadBufferPool.SHELF_BYTES);
    List<ReadBufferPool.ReadBuffer> taken = new ArrayList<>();
    for (int i = 0; i < shelf + 3; i++) {
      taken.add(pool.take(4096));
    }
    taken.forEach(pool::giveBack);
    assertEquals(shelf, pool.idleBuffers());
    assertEquals(3, taken.stream().filter(b -> b.buffer().refCnt() == 0).count(), "given back to a full shelf");
    int bigShelf = ReadBufferPool.shelfCapacity(256 * 1024);
    assertEquals(2, bigShelf, "512 KiB of idle 256 KiB buffers");
    List<ReadBufferPool.ReadBuffer> big = new ArrayList<>();
    for (int i = 0; i <= bigShelf; i++) {
      big.add(pool.take(200_000));
    }
    big.forEach(pool::giveBack);
    assertEquals(1, big.stream().filter(b -> b.buffer().refCnt() == 0).count());
    ReadBufferPool.ReadBuffer out = pool.take(100);
    pool.close();
    assertEquals(0, pool.idleBuffers());
    assertTrue(taken.stream().allMatch(b -> b.buffer().refCnt() == 0));
    assertTrue(big.stream().allMatch(b -> b.buffer().refCnt() == 0));
    assertEquals(1, out.buffer().refCnt(), "a buffer handed out survives close");
    pool.giveBack(out);
    assertEquals(0, out.buffer().refCnt(), "and is released when given back after close");
  }

  /** Never hands one buffer to two takers at once: each taker stamps the buffer and checks its stamp is intact. */
  @Test
  @SuppressWarnings("ThreadPriorityCheck") // the yield between write and check widens the window a sharing bug needs
  void concurrentTakersNeverShareABufferAndCloseReleasesEverything() throws Exception {
    ReadBufferPool pool = pool();
    Set<ByteBuf> seen = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int stamp = t + 1;
      Thread thread = new Thread(() -> {
        try {
          go.await();
          for (int i = 0; i < 20_000; i++) {
            ReadBufferPool.ReadBuffer b = pool.take(4096);
            seen.add(b.buffer());
            b.buffer().writeInt(stamp).writeInt(i);
            Thread.yield();
            if (b.buffer().getInt(0) != stamp || b.buffer().getInt(4) != i || b.buffer().writerIndex() != 8) {
              throw new AssertionError("a buffer was handed to two takers");
            }
            pool.giveBack(b);
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      });
      threads.add(thread);
      thread.start();
    }
    go.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    pool.close();
    for (ByteBuf b : seen) {
      assertEquals(0, b.refCnt(), "every buffer released after close");
    }
  }
}
