package dev.blockcache.jmh.device;

import dev.blockcache.bucket.engine.ChannelIo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.Semaphore;

/**
 * A {@link ChannelIo} that makes reads take as long as a modelled device would: it admits at most
 * {@link DeviceProfile#maxOutstanding()} reads at once, books each on a {@link DeviceScheduler}, does the real read
 * (normally from the page cache) and then waits until the booked completion. Writes pass through unchanged: the
 * experiments measure reads, and writers run in the background.
 *
 * <p>For benchmarks only ({@code hbase.bucketcache.file.device.model}); never on by default.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class DeviceModelIo implements ChannelIo {
  private final ChannelIo delegate;
  private final DeviceScheduler scheduler;
  private final DeviceClock clock;
  private final Semaphore outstanding;

  public DeviceModelIo(ChannelIo delegate, DeviceScheduler scheduler, DeviceClock clock) {
    this.delegate = delegate;
    this.scheduler = scheduler;
    this.clock = clock;
    this.outstanding = new Semaphore(scheduler.profile().maxOutstanding());
  }

  /** {@code delegate} under the profile named {@code model}, or {@code delegate} itself for {@code none}. */
  public static ChannelIo wrap(ChannelIo delegate, String model) {
    if (model == null || model.equals("none")) {
      return delegate;
    }
    return new DeviceModelIo(delegate, new DeviceScheduler(DeviceProfile.named(model), 42), DeviceClock.SYSTEM);
  }

  @Override
  public int read(FileChannel channel, ByteBuffer dst, long position) throws IOException {
    outstanding.acquireUninterruptibly();
    try {
      long done = scheduler.schedule(clock.nanoTime());
      int n = delegate.read(channel, dst, position);
      clock.awaitUntil(done);
      return n;
    } finally {
      outstanding.release();
    }
  }

  @Override
  public int write(FileChannel channel, ByteBuffer src, long position) throws IOException {
    return delegate.write(channel, src, position);
  }
}
