package dev.blockcache.hbase.clients.fs;

import dev.blockcache.jmh.device.DeviceClock;
import dev.blockcache.jmh.device.DeviceProfile;
import dev.blockcache.jmh.device.DeviceScheduler;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;

/**
 * One storage device as cache-jmh's device models describe it ({@link DeviceProfile}: channels, service time, IOPS
 * cap, queue depth), shared by every stream that reads through it: a read is admitted when the device has room for
 * it, booked on the {@link DeviceScheduler}, done for real (from the page cache), and returned only once its booked
 * completion time has come.
 *
 * <p>There is one device per profile per JVM ({@link #named}): the RegionServers of a mini cluster share it, as
 * RegionServers on one host share its disk.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class ModelledDevice {
  private static final Map<String, ModelledDevice> DEVICES = new ConcurrentHashMap<>();
  /** Seed of each device's service-time generator: runs with the same arrival order book the same times. */
  private static final long SEED = 42;
  /** Reads booked by every device of this JVM. */
  private static final LongAdder READS = new LongAdder();

  private final DeviceScheduler scheduler;
  private final Semaphore queue;

  private ModelledDevice(DeviceProfile profile) {
    this.scheduler = new DeviceScheduler(profile, SEED);
    this.queue = new Semaphore(profile.maxOutstanding());
  }

  /** The JVM's device for the profile called {@code name} ({@link DeviceProfile#named}). */
  static ModelledDevice named(String name) {
    DeviceProfile profile = DeviceProfile.named(name);
    return DEVICES.computeIfAbsent(profile.name(), n -> new ModelledDevice(profile));
  }

  /** A read of the device: {@code io} runs once the device admits it; the result comes back at its completion. */
  <T> T read(Io<T> io) throws IOException {
    queue.acquireUninterruptibly();
    READS.increment();
    try {
      long completion = scheduler.schedule(DeviceClock.SYSTEM.nanoTime());
      T result = io.run();
      DeviceClock.SYSTEM.awaitUntil(completion);
      return result;
    } finally {
      queue.release();
    }
  }

  /** Reads booked so far by every device of this JVM. */
  static long reads() {
    return READS.sum();
  }

  /** The real read a modelled one wraps. */
  @FunctionalInterface
  interface Io<T> {
    T run() throws IOException;
  }
}
