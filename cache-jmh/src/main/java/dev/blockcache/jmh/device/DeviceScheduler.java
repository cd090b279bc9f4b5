package dev.blockcache.jmh.device;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Schedules reads on a modelled device in virtual time: each read starts on the channel that frees first, no earlier
 * than its arrival and no earlier than the IOPS cap allows after the previous start, and completes a sampled service
 * time later. The caller does the real read, then waits until the completion time.
 *
 * <h2>Design notes</h2>
 * Only times are kept (one "free at" per channel and the next allowed start), so the model costs a few arithmetic
 * operations under one lock per read and never sleeps while holding it. Service times are drawn from a seeded
 * generator, so a run is reproducible for the same arrival order.
 *
 * <p>Thread-safety: safe for concurrent use; {@link #schedule} is synchronized.
 */
public final class DeviceScheduler {
  private final DeviceProfile profile;
  @GuardedBy("this")
  private final long[] channelFreeAt;
  @GuardedBy("this")
  private long nextStartAllowed = Long.MIN_VALUE;
  @GuardedBy("this")
  private final SplittableRandom random;

  public DeviceScheduler(DeviceProfile profile, long seed) {
    this.profile = profile;
    this.channelFreeAt = new long[profile.channels()];
    Arrays.fill(channelFreeAt, Long.MIN_VALUE);
    this.random = new SplittableRandom(seed);
  }

  public DeviceProfile profile() {
    return profile;
  }

  /** Books a read arriving at {@code nowNanos} and returns when it completes, in the same clock. */
  public synchronized long schedule(long nowNanos) {
    int channel = 0;
    for (int i = 1; i < channelFreeAt.length; i++) {
      if (channelFreeAt[i] < channelFreeAt[channel]) {
        channel = i;
      }
    }
    long start = Math.max(nowNanos, Math.max(channelFreeAt[channel], nextStartAllowed));
    long service = profile.minServiceNanos() == profile.maxServiceNanos()
        ? profile.minServiceNanos()
        : random.nextLong(profile.minServiceNanos(), profile.maxServiceNanos() + 1);
    long done = start + service;
    channelFreeAt[channel] = done;
    nextStartAllowed = start + profile.issueIntervalNanos();
    return done;
  }
}
