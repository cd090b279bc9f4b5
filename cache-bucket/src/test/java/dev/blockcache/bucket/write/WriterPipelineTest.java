package dev.blockcache.bucket.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WriterPipelineTest {
  private final ConcurrentLinkedQueue<BlockKey> written = new ConcurrentLinkedQueue<>();

  private static PendingWrite write(long offset) {
    return new PendingWrite(BlockKey.of("f", offset),
        WaitingBlock.copyOf(Unpooled.wrappedBuffer(new byte[16]), BlockCategory.DATA), CachePriority.SINGLE);
  }

  @Test
  void aFullQueueRefusesAtOnceWithoutWaitTime() {
    try (WriterPipeline pipeline = new WriterPipeline(1, 4, 0, batch -> batch.forEach(w -> written.add(w.key())))) {
      for (int i = 0; i < 4; i++) {
        assertTrue(pipeline.submit(write(i)));
      }
      assertFalse(pipeline.submit(write(4)));
      assertEquals(4, pipeline.queuedCount());
      assertEquals(4, pipeline.drainNow());
      assertEquals(4, written.size());
      assertTrue(pipeline.submit(write(5)));
    }
  }

  /** HBase's readers cache with waitWhenCache=false: a configured wait must not stall them on a full queue. */
  @Test
  void aSubmitterThatMayNotWaitIsRefusedAtOnceDespiteAWaitTime() {
    try (WriterPipeline pipeline = new WriterPipeline(1, 1, 60_000, batch -> batch.forEach(w -> written.add(w.key())))) {
      assertTrue(pipeline.submit(write(0), QueueWait.NONE));
      long start = System.nanoTime();
      assertFalse(pipeline.submit(write(1), QueueWait.NONE));
      assertTrue(System.nanoTime() - start < 30_000_000_000L, "waited for room");
      assertEquals(1, pipeline.drainNow());
    }
  }

  @Test
  void queueCapacityIsThreadsTimesLength() {
    try (WriterPipeline pipeline = new WriterPipeline(3, 64, 0, batch -> { })) {
      assertEquals(192, pipeline.queueCapacity());
    }
  }

  @Test
  void aWaitTimeLetsASubmitterWaitForRoom() throws Exception {
    CountDownLatch writerMayRun = new CountDownLatch(1);
    CountDownLatch writerTookBatch = new CountDownLatch(1);
    BlockWriter slow = batch -> {
      writerTookBatch.countDown();
      try {
        writerMayRun.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      batch.forEach(w -> written.add(w.key()));
    };
    try (WriterPipeline pipeline = new WriterPipeline(1, 1, 10_000, slow)) {
      pipeline.start(Thread::new);
      assertTrue(pipeline.submit(write(0)));
      writerTookBatch.await();
      assertTrue(pipeline.submit(write(1)));
      Thread submitter = new Thread(() -> assertTrue(pipeline.submit(write(2))));
      submitter.start();
      writerMayRun.countDown();
      submitter.join();
      assertTrue(pipeline.awaitWritten(Duration.ofSeconds(30)));
      assertEquals(3, written.size());
    }
  }

  @Test
  void aWaitTimeRunsOutWhenTheWriterStaysBusy() throws Exception {
    CountDownLatch writerMayRun = new CountDownLatch(1);
    CountDownLatch writerTookBatch = new CountDownLatch(1);
    BlockWriter stalled = batch -> {
      writerTookBatch.countDown();
      try {
        writerMayRun.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    try (WriterPipeline pipeline = new WriterPipeline(1, 1, 20, stalled)) {
      pipeline.start(Thread::new);
      assertTrue(pipeline.submit(write(0)));
      writerTookBatch.await();
      assertTrue(pipeline.submit(write(1)));
      long start = System.nanoTime();
      assertFalse(pipeline.submit(write(2)));
      assertTrue(System.nanoTime() - start >= 20_000_000L, "refused before the wait time ran out");
      writerMayRun.countDown();
    }
  }

  @Test
  void startedWritersWriteEverythingAndAwaitWrittenSeesIt() throws Exception {
    try (WriterPipeline pipeline = new WriterPipeline(3, 64, 1000,
        batch -> batch.forEach(w -> written.add(w.key())))) {
      pipeline.start(Thread::new);
      for (int i = 0; i < 1000; i++) {
        assertTrue(pipeline.submit(write(i)));
      }
      assertTrue(pipeline.awaitWritten(Duration.ofSeconds(30)));
      assertEquals(1000, written.size());
      assertEquals(0, pipeline.queuedCount());
    }
  }

  @Test
  void closeWritesWhatIsQueued() {
    WriterPipeline pipeline = new WriterPipeline(2, 8, 0, batch -> batch.forEach(w -> written.add(w.key())));
    for (int i = 0; i < 10; i++) {
      pipeline.submit(write(i));
    }
    pipeline.close();
    pipeline.close();
    assertEquals(10, written.size());
  }

  @Test
  void oneKeyAlwaysGoesToTheSameWriter() {
    ConcurrentLinkedQueue<List<PendingWrite>> batches = new ConcurrentLinkedQueue<>();
    try (WriterPipeline pipeline = new WriterPipeline(4, 8, 0, batch -> batches.add(List.copyOf(batch)))) {
      for (int i = 0; i < 6; i++) {
        assertTrue(pipeline.submit(write(7)));
      }
      pipeline.drainNow();
    }
    assertEquals(1, batches.size());
    assertEquals(6, batches.peek().size());
  }

  @Test
  void awaitWrittenGivesUpAfterItsTimeoutWhileAWriterIsStalled() throws Exception {
    CountDownLatch writerMayRun = new CountDownLatch(1);
    CountDownLatch writerTookBatch = new CountDownLatch(1);
    BlockWriter stalled = batch -> {
      writerTookBatch.countDown();
      try {
        writerMayRun.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    try (WriterPipeline pipeline = new WriterPipeline(1, 4, 0, stalled)) {
      pipeline.start(Thread::new);
      assertTrue(pipeline.submit(write(0)));
      writerTookBatch.await();
      long start = System.nanoTime();
      assertFalse(pipeline.awaitWritten(Duration.ofMillis(50)));
      assertTrue(System.nanoTime() - start >= 50_000_000L, "gave up before the timeout");
      writerMayRun.countDown();
      assertTrue(pipeline.awaitWritten(Duration.ofSeconds(30)));
    }
  }

  @Test
  void awaitWrittenThrowsWhenInterrupted() throws Exception {
    CountDownLatch writerMayRun = new CountDownLatch(1);
    CountDownLatch writerTookBatch = new CountDownLatch(1);
    BlockWriter stalled = batch -> {
      writerTookBatch.countDown();
      try {
        writerMayRun.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    try (WriterPipeline pipeline = new WriterPipeline(1, 4, 0, stalled)) {
      pipeline.start(Thread::new);
      assertTrue(pipeline.submit(write(0)));
      writerTookBatch.await();
      Thread.currentThread().interrupt();
      assertThrows(InterruptedException.class, () -> pipeline.awaitWritten(Duration.ofSeconds(30)));
      assertFalse(Thread.interrupted());
      writerMayRun.countDown();
    }
  }

  /** A block queued after close's last drain still reaches the writer (a handed-over buffer would leak otherwise). */
  @Test
  void aBlockQueuedAfterCloseIsStillPassedToTheWriter() {
    WriterPipeline pipeline = new WriterPipeline(1, 8, 0, batch -> batch.forEach(w -> written.add(w.key())));
    pipeline.start(Thread::new);
    pipeline.close();
    assertTrue(pipeline.submit(write(1)));
    assertEquals(1, written.size());
  }

  /** Writers wake per batch: a burst into an idle writer is written in a few batches, not one per block. */
  @Test
  void aBurstIsWrittenInBatches() throws Exception {
    AtomicInteger batches = new AtomicInteger();
    try (WriterPipeline pipeline = new WriterPipeline(1, 256, 1000, batch -> {
      batches.incrementAndGet();
      batch.forEach(w -> written.add(w.key()));
    })) {
      pipeline.start(Thread::new);
      for (int i = 0; i < 256; i++) {
        assertTrue(pipeline.submit(write(i)));
      }
      assertTrue(pipeline.awaitWritten(Duration.ofSeconds(30)));
      assertEquals(256, written.size());
      assertTrue(batches.get() <= 128, batches.get() + " batches for 256 blocks");
    }
  }
}
