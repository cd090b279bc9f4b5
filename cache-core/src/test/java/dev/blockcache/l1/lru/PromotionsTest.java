package dev.blockcache.l1.lru;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.buffer.HeapBlock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The promotion ring: order, its bound, and every offer taken once under concurrent producers. */
class PromotionsTest {
  private static LruEntry entry(int i) {
    ByteBuf bytes = Unpooled.wrappedBuffer(new byte[] {(byte) i});
    try {
      return new LruEntry(BlockKey.of("f", i), HeapBlock.copyOf(bytes, BlockCategory.DATA), CachePriority.SINGLE);
    } finally {
      bytes.release();
    }
  }

  @Test
  void pollsInOfferOrderThenNull() {
    Promotions ring = new Promotions();
    List<LruEntry> offered = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      offered.add(entry(i));
      assertTrue(ring.offer(offered.get(i)));
    }
    for (LruEntry e : offered) {
      assertSame(e, ring.pollLocked());
    }
    assertNull(ring.pollLocked());
  }

  @Test
  void aFullRingRefusesUntilPolled() {
    Promotions ring = new Promotions();
    LruEntry e = entry(0);
    for (int i = 0; i < Promotions.CAPACITY; i++) {
      assertTrue(ring.offer(e));
    }
    assertFalse(ring.offer(e), "offered past the capacity");
    assertSame(e, ring.pollLocked());
    assertTrue(ring.offer(e), "a polled slot is free again");
  }

  @Test
  void concurrentOffersArePolledOnceEachInEachProducersOrder() throws Exception {
    int producers = 4;
    int perProducer = 20_000;
    Promotions ring = new Promotions();
    LruEntry[][] entries = new LruEntry[producers][perProducer];
    for (int p = 0; p < producers; p++) {
      for (int i = 0; i < perProducer; i++) {
        entries[p][i] = entry(p * perProducer + i);
      }
    }
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger done = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    Set<LruEntry> accepted = ConcurrentHashMap.newKeySet();
    for (int p = 0; p < producers; p++) {
      LruEntry[] mine = entries[p];
      Thread t = new Thread(() -> {
        try {
          start.await();
          for (LruEntry e : mine) {
            if (ring.offer(e)) {
              accepted.add(e);
            }
          }
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
        } finally {
          done.incrementAndGet();
        }
      });
      t.start();
      threads.add(t);
    }
    start.countDown();
    Set<LruEntry> polled = new HashSet<>();
    int[] lastIndex = new int[producers];
    Arrays.fill(lastIndex, -1);
    while (true) {
      boolean finished = done.get() == producers; // read before polling: nothing is offered after it
      for (LruEntry e; (e = ring.pollLocked()) != null; ) {
        assertTrue(polled.add(e), "an offer was polled twice");
        int id = (int) e.key().offset();
        int p = id / perProducer;
        assertTrue(id % perProducer > lastIndex[p], "producer " + p + "'s offers came out of order");
        lastIndex[p] = id % perProducer;
      }
      if (finished) {
        break;
      }
      Thread.onSpinWait();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(accepted, polled, "every accepted offer is polled, and nothing else");
  }
}
