package dev.blockcache.jmh.scale;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The device's own latency floor for a {@code file:} cell: random reads of one slot's bytes with a plain
 * {@link FileChannel}, first alone, then while another thread writes slots at the rate the cache accepted inserts
 * while evicting. No cache is involved, so the ratio of the two p99.9s is what the file and the device cost a read
 * that waits behind writes; the cache's own ratio (gets while inserts evict) is read against it.
 *
 * <p>Runs on the cell's cache file after the last phase that reads it (its writes overwrite slots; the experiment
 * created the file and deletes it).
 *
 * <p>Thread-safety: one instance per measurement; {@link #measure} starts and joins its writer thread.
 */
final class DeviceFloor {
  /** p99.9 of reads alone and of reads while writes run, in microseconds. */
  record Result(double idleP999Micros, double writingP999Micros) {}

  private final Path file;
  private final int slotBytes;
  private final long slots;

  /** A floor over {@code file}, read and written in slots of {@code slotBytes}, {@code slots} of them. */
  DeviceFloor(Path file, int slotBytes, long slots) {
    this.file = file;
    this.slotBytes = slotBytes;
    this.slots = slots;
  }

  /** Reads for {@code millis} alone, then for {@code millis} while {@code writesPerSecond} slots are written. */
  Result measure(long millis, double writesPerSecond) throws IOException, InterruptedException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ch.force(false); // the cache's last writes reach the device first, so that "alone" is alone
      ByteBuffer buf = ByteBuffer.allocateDirect(slotBytes);
      SplittableRandom random = new SplittableRandom(11);
      reads(ch, buf, random, millis / 3); // warms up the path, not the data: the file is larger than memory
      double idle = reads(ch, buf, random, millis);
      AtomicBoolean stop = new AtomicBoolean();
      IOException[] failed = new IOException[1];
      Thread writer = new Thread(() -> {
        try {
          writes(ch, writesPerSecond, stop);
        } catch (IOException e) {
          failed[0] = e;
        }
      }, "device-floor-writer");
      writer.start();
      double writing;
      try {
        writing = reads(ch, buf, random, millis);
      } finally {
        stop.set(true);
        writer.join();
      }
      if (failed[0] != null) {
        throw failed[0];
      }
      return new Result(idle, writing);
    }
  }

  private double reads(FileChannel ch, ByteBuffer buf, SplittableRandom random, long millis) throws IOException {
    Histogram latency = new Histogram(60_000_000_000L, 3);
    long end = System.nanoTime() + millis * 1_000_000L;
    for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
      buf.clear();
      long at = random.nextLong(slots) * slotBytes;
      while (buf.hasRemaining() && ch.read(buf, at + buf.position()) >= 0) {
        // a short read continues where it stopped
      }
      latency.recordValue(System.nanoTime() - now);
    }
    return latency.getValueAtPercentile(99.9) / 1000.0;
  }

  /** Writes zeros to random slots, paced to {@code perSecond}, until {@code stop}. */
  private void writes(FileChannel ch, double perSecond, AtomicBoolean stop) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocateDirect(slotBytes);
    SplittableRandom random = new SplittableRandom(13);
    long start = System.nanoTime();
    for (long n = 0; !stop.get(); n++) {
      long due = start + (long) (n * 1e9 / perSecond);
      long wait = due - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait); // parked, not spinning: the reads keep the other core
      }
      zeros.clear();
      long at = random.nextLong(slots) * slotBytes;
      while (zeros.hasRemaining()) {
        ch.write(zeros, at + zeros.position());
      }
    }
  }
}
