package dev.blockcache.bucket;

import dev.blockcache.bucket.engine.ChannelIo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link ChannelIo} for tests that fails on demand the way a dying disk does: EIO on reads, ENOSPC on writes, reads
 * that stop short (part of the bytes, then end of file), and slow reads. A slow read takes {@link #slowMs} of the
 * test's injected clock ({@link #clock}, advanced by the read: no real waiting), then succeeds ({@code SLOW}) or
 * times out with EIO ({@code SLOW_EIO}); with a {@link #gate} set, it also holds its thread until the test opens the
 * gate, after counting down {@link #entered}.
 *
 * <p>Thread-safety: the fault switches are volatile; safe for concurrent use.
 */
final class FaultyChannelIo implements ChannelIo {
  enum Fault { NONE, EIO, SHORT_READ, SLOW, SLOW_EIO }

  volatile Fault readFault = Fault.NONE;
  volatile boolean noSpace;
  /** The clock a slow read advances (ms); null: slow reads take no time. */
  volatile AtomicLong clock;
  volatile long slowMs;
  /** Counted down when a slow read starts; then the read waits for {@link #gate} if set. */
  volatile CountDownLatch entered;
  volatile CountDownLatch gate;

  private void stall() throws IOException {
    if (clock != null) {
      clock.addAndGet(slowMs);
    }
    CountDownLatch held = gate; // read before signalling: the test may clear the field once told
    if (entered != null) {
      entered.countDown();
    }
    if (held != null) {
      try {
        held.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted in an injected slow read", e);
      }
    }
  }

  @Override
  public int read(FileChannel channel, ByteBuffer dst, long position) throws IOException {
    switch (readFault) {
      case EIO -> throw new IOException("Input/output error (injected EIO)");
      case SLOW -> {
        stall();
        return channel.read(dst, position);
      }
      case SLOW_EIO -> {
        stall();
        throw new IOException("Input/output error after a slow read (injected timeout)");
      }
      case SHORT_READ -> {
        if (dst.remaining() > 1) {
          int limit = dst.limit();
          dst.limit(dst.position() + dst.remaining() / 2);
          int n = channel.read(dst, position);
          dst.limit(limit);
          return n;
        }
        return -1;
      }
      default -> {
        return channel.read(dst, position);
      }
    }
  }

  @Override
  public int write(FileChannel channel, ByteBuffer src, long position) throws IOException {
    if (noSpace) {
      throw new IOException("No space left on device (injected ENOSPC)");
    }
    return channel.write(src, position);
  }
}
