package dev.blockcache.bucket.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import io.netty.buffer.Unpooled;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Withdrawal against publication: a withdrawn block is never mapped, and a withdraw waits for a running publish. */
class PendingWriteTest {
  private static final BlockKey KEY = BlockKey.of("f", 0);
  private static final long ENTRY = IndexEntry.pack(0, 100, CachePriority.SINGLE, BlockCategory.DATA);

  private static PendingWrite write() {
    return new PendingWrite(KEY, WaitingBlock.copyOf(Unpooled.wrappedBuffer(new byte[64]), BlockCategory.DATA),
        CachePriority.SINGLE);
  }

  @Test
  void aWithdrawnBlockIsNotPublished() {
    BlockIndex index = new BlockIndex(16);
    PendingWrite w = write();
    w.withdraw();
    assertFalse(w.publishIn(index, ENTRY));
    assertEquals(IndexEntry.ABSENT, index.peek(KEY));
  }

  @Test
  void aPublishedBlockStaysPublishedAfterAWithdrawAndAPresentKeyIsNotReplaced() {
    BlockIndex index = new BlockIndex(16);
    PendingWrite w = write();
    assertTrue(w.publishIn(index, ENTRY));
    w.withdraw();
    assertEquals(ENTRY, index.peek(KEY), "the evictor removes a published entry from the index itself");
    assertFalse(write().publishIn(index, IndexEntry.pack(4096, 100, CachePriority.SINGLE, BlockCategory.DATA)));
    assertEquals(ENTRY, index.peek(KEY));
  }

  /** A withdraw that starts while the publish holds the block's monitor returns only after the entry is in. */
  @Test
  void withdrawWaitsForAPublishInProgress() throws Exception {
    BlockIndex index = new BlockIndex(16);
    PendingWrite w = write();
    CountDownLatch publishing = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    Thread withdrawer;
    synchronized (w) { // stands in for publishIn's critical section
      withdrawer = new Thread(() -> {
        publishing.countDown();
        w.withdraw();
        proceed.countDown();
      });
      withdrawer.start();
      publishing.await();
      Thread.State state;
      do {
        state = withdrawer.getState();
        Thread.onSpinWait();
      } while (state != Thread.State.BLOCKED);
      assertEquals(1, proceed.getCount(), "withdraw ran while the publication held the monitor");
      assertEquals(IndexEntry.ABSENT, index.putIfAbsent(KEY, ENTRY));
    }
    withdrawer.join();
    assertFalse(w.publishIn(index, ENTRY), "withdrawn after the publication: a second publish is refused");
    assertEquals(ENTRY, index.peek(KEY));
  }
}
