package dev.blockcache.bucket.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code file:} with O_DIRECT: every unaligned read and write goes through the aligned covering pages. */
class DirectFileIoEngineTest extends IoEngineContractTest {
  @TempDir
  Path dir;

  @Override
  protected IoEngine newEngine(long capacity, int segmentSize) throws IOException {
    return FileIoEngine.open("files:" + dir.resolve("a.bin") + "," + dir.resolve("b.bin"), capacity, segmentSize,
        FileEngineOptions.DEFAULTS.withPageCache(PageCache.BYPASSED));
  }

  /**
   * Slots of 1,280 bytes share 4096-byte pages; threads rewrite interleaved slots concurrently, so their
   * read-modify-writes meet on edge pages. A lost update would show as another thread's (or stale) bytes.
   */
  @Test
  void concurrentWritesOfSlotsSharingPagesLoseNoUpdate() throws Exception {
    int slot = 1280;
    int slots = 400;
    int threads = 4;
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread worker = new Thread(() -> {
        try {
          start.await();
          for (int round = 1; round <= 5; round++) {
            for (int s = id; s < slots; s += threads) {
              byte[] data = new byte[slot];
              java.util.Arrays.fill(data, (byte) (s * 31 + round));
              engine.write((long) s * slot, Unpooled.wrappedBuffer(data));
            }
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
    for (int s = 0; s < slots; s++) {
      ByteBuf read = engine.read((long) s * slot, slot);
      try {
        for (int i = 0; i < slot; i++) {
          assertEquals((byte) (s * 31 + 5), read.getByte(i), "slot " + s + " byte " + i);
        }
      } finally {
        read.release();
      }
    }
  }
}
