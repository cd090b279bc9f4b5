package dev.blockcache.jmh.device;

import java.util.Locale;

/**
 * A storage device as the experiments assume it: parallel channels, a service time drawn uniformly from
 * [{@code minServiceNanos}, {@code maxServiceNanos}], an IOPS cap and a limit on outstanding requests. The figures are
 * assumptions from vendor data sheets and the seed studies, not measurements (docs/benchmarks.md, "Device models").
 *
 * @param channels requests served at once
 * @param minServiceNanos shortest service time of one read
 * @param maxServiceNanos longest service time of one read
 * @param maxIops reads started per second at most, over all channels
 * @param maxOutstanding reads admitted at once (queued or in service); more wait for a slot
 *
 * <p>Thread-safety: immutable.
 */
public record DeviceProfile(String name, int channels, long minServiceNanos, long maxServiceNanos, long maxIops,
    int maxOutstanding) {
  /** A 7,200 rpm disk: one head, 2–14 ms seek plus rotation, ~125 IOPS. */
  public static final DeviceProfile HDD = new DeviceProfile("hdd", 1, 2_000_000, 14_000_000, 125, 32);
  /** A SATA SSD: 8 channels, ~90 µs reads, at most 90k IOPS and 32 outstanding (NCQ depth). */
  public static final DeviceProfile SATA_SSD = new DeviceProfile("sata-ssd", 8, 60_000, 120_000, 90_000, 32);
  /** A PCIe NVMe SSD: 32 channels, ~20 µs reads, at most 500k IOPS. */
  public static final DeviceProfile NVME = new DeviceProfile("nvme", 32, 10_000, 30_000, 500_000, 1024);

  public DeviceProfile {
    if (channels <= 0 || minServiceNanos < 0 || maxServiceNanos < minServiceNanos || maxIops <= 0
        || maxOutstanding <= 0) {
      throw new IllegalArgumentException("inconsistent device profile " + name);
    }
  }

  /** The profile called {@code name} ("hdd", "sata-ssd" or "nvme"), case-insensitive. */
  public static DeviceProfile named(String name) {
    return switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "hdd" -> HDD;
      case "sata-ssd" -> SATA_SSD;
      case "nvme" -> NVME;
      default -> throw new IllegalArgumentException("no device profile " + name + "; hdd, sata-ssd or nvme");
    };
  }

  /** Nanoseconds between read starts at the IOPS cap. */
  long issueIntervalNanos() {
    return 1_000_000_000L / maxIops;
  }
}
