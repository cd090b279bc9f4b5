package dev.blockcache.jmh.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.engine.ChannelIo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The device model in virtual time: channels, service times, the IOPS cap, and waiting until completion. */
class DeviceModelTest {
  /** A clock that only moves when a wait advances it, recording every deadline. */
  private static final class VirtualClock implements DeviceClock {
    long now;
    final List<Long> waits = new ArrayList<>();

    @Override
    public long nanoTime() {
      return now;
    }

    @Override
    public void awaitUntil(long deadlineNanos) {
      waits.add(deadlineNanos);
      now = Math.max(now, deadlineNanos);
    }
  }

  private static DeviceProfile fixed(int channels, long service, long iops) {
    return new DeviceProfile("test", channels, service, service, iops, 64);
  }

  @Test
  void oneChannelServesReadsOneAfterAnother() {
    DeviceScheduler scheduler = new DeviceScheduler(fixed(1, 100, 1_000_000_000), 1);
    assertEquals(100, scheduler.schedule(0));
    assertEquals(200, scheduler.schedule(0));
    assertEquals(300, scheduler.schedule(50));
    assertEquals(1100, scheduler.schedule(1000), "an idle device starts a read on arrival");
  }

  @Test
  void parallelChannelsOverlapUntilAllAreBusy() {
    DeviceScheduler scheduler = new DeviceScheduler(fixed(2, 100, 1_000_000_000), 1);
    assertEquals(100, scheduler.schedule(0));
    assertEquals(101, scheduler.schedule(0), "the IOPS cap spaces starts 1 ns apart");
    assertEquals(200, scheduler.schedule(0));
  }

  @Test
  void theIopsCapSpacesStartsEvenWithIdleChannels() {
    DeviceScheduler scheduler = new DeviceScheduler(fixed(8, 10, 1000), 1);
    assertEquals(10, scheduler.schedule(0));
    assertEquals(1_000_010, scheduler.schedule(0));
    assertEquals(2_000_010, scheduler.schedule(5));
  }

  @Test
  void serviceTimesStayInTheProfilesRangeAndRepeatForTheSameSeed() {
    DeviceScheduler a = new DeviceScheduler(DeviceProfile.HDD, 7);
    DeviceScheduler b = new DeviceScheduler(DeviceProfile.HDD, 7);
    long time = 0;
    for (int i = 0; i < 1000; i++) {
      time += 1_000_000_000L;
      long done = a.schedule(time);
      assertEquals(done, b.schedule(time));
      assertTrue(done - time >= 2_000_000 && done - time <= 14_000_000, "service " + (done - time));
    }
  }

  @Test
  void profilesAreFoundByName() {
    assertEquals(DeviceProfile.NVME, DeviceProfile.named("NVMe"));
    assertEquals(DeviceProfile.SATA_SSD, DeviceProfile.named("sata-ssd"));
    assertThrows(IllegalArgumentException.class, () -> DeviceProfile.named("floppy"));
  }

  @Test
  void readsReturnTheRealBytesAndWaitUntilTheBookedCompletion(@TempDir Path dir) throws IOException {
    VirtualClock clock = new VirtualClock();
    DeviceModelIo io = new DeviceModelIo(ChannelIo.PLAIN, new DeviceScheduler(fixed(1, 500, 1_000_000), 1), clock);
    try (FileChannel channel = FileChannel.open(dir.resolve("f"), StandardOpenOption.CREATE,
        StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      io.write(channel, ByteBuffer.wrap(new byte[] {9, 8, 7}), 0);
      assertTrue(clock.waits.isEmpty(), "writes are not modelled");
      ByteBuffer dst = ByteBuffer.allocate(3);
      assertEquals(3, io.read(channel, dst, 0));
      assertEquals(9, dst.get(0));
      assertEquals(7, dst.get(2));
      dst.clear();
      io.read(channel, dst, 0);
      assertEquals(List.of(500L, 1500L), clock.waits, "second read: IOPS cap starts it at 1000, done at 1500");
    }
  }

  @Test
  void noneLeavesTheChannelIoUnwrapped() {
    assertEquals(ChannelIo.PLAIN, DeviceModelIo.wrap(ChannelIo.PLAIN, "none"));
    assertTrue(DeviceModelIo.wrap(ChannelIo.PLAIN, "nvme") instanceof DeviceModelIo);
  }

  @Test
  void theSystemClockWaitsAtLeastUntilTheDeadline() {
    long deadline = System.nanoTime() + 500_000;
    DeviceClock.SYSTEM.awaitUntil(deadline);
    assertTrue(System.nanoTime() >= deadline);
  }
}
