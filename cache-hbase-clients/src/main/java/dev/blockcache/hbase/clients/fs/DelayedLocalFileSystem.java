package dev.blockcache.hbase.clients.fs;

import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * Hadoop's local filesystem with HFile reads delayed as a modelled device would serve them, so that a block cache miss
 * in a RegionServer costs what a read from a disk costs rather than a copy from the page cache. Installed for
 * {@code file:} URIs by {@link #install}; {@value #DEVICE_KEY} names the device ({@code none}, {@code sata-ssd},
 * {@code hdd} or {@code nvme}: cache-jmh's {@code DeviceProfile}s). Only store files
 * ({@code <root>/data/<namespace>/<table>/<region>/<family>/<file>}) are delayed: WALs, table descriptors and region
 * info read at full speed, as they would from a RegionServer's page cache or HDFS client buffers.
 *
 * <p>Hadoop caches a {@link FileSystem} per scheme and user: call {@link FileSystem#closeAll()} after a cluster that
 * used one device before starting one with another, or the cached instance keeps the first.
 *
 * <p>Thread-safety: as Hadoop's {@link LocalFileSystem}.
 */
public final class DelayedLocalFileSystem extends LocalFileSystem {
  /** The modelled device HFile reads go through; {@code none} reads at the page cache's speed. */
  public static final String DEVICE_KEY = "blockcache.fs.read.device";

  /** The values {@value #DEVICE_KEY} accepts. */
  public static final Set<String> DEVICES = Set.of("none", "sata-ssd", "hdd", "nvme");

  /** Hadoop's instantiation path: the delays come from {@value #DEVICE_KEY} at {@link #initialize}. */
  public DelayedLocalFileSystem() {
    super(new DelayedRawFileSystem());
  }

  /**
   * Makes {@code conf}'s {@code file:} filesystem this one, reading store files through {@code device}.
   *
   * @throws IllegalArgumentException naming {@value #DEVICE_KEY} when {@code device} is not one of {@link #DEVICES}
   */
  public static void install(Configuration conf, String device) {
    conf.set(DEVICE_KEY, checkedDevice(device));
    conf.set("fs.file.impl", DelayedLocalFileSystem.class.getName());
  }

  /**
   * Device reads booked so far by every modelled device of this JVM: the store-file reads that reached a device
   * (block-cache misses, and the scans and compactions that read files), whatever the caches counted.
   */
  public static long deviceReads() {
    return ModelledDevice.reads();
  }

  static String checkedDevice(String device) {
    String name = device == null ? "" : device.trim().toLowerCase(Locale.ROOT);
    if (!DEVICES.contains(name)) {
      throw new IllegalArgumentException(DEVICE_KEY + "='" + device + "': expected one of none, sata-ssd, hdd, nvme");
    }
    return name;
  }

  /** True for a file five directories below one named {@code data}: a store file (HFile) of a region's family. */
  static boolean isStoreFile(Path file) {
    Path p = file;
    for (int i = 0; i < 5 && p != null; i++) {
      p = p.getParent();
    }
    return p != null && p.getName().equals("data");
  }

  /** The raw filesystem under the checksum layer: where the delays are applied. */
  private static final class DelayedRawFileSystem extends RawLocalFileSystem {
    private ModelledDevice device;

    @Override
    public void initialize(URI uri, Configuration conf) throws IOException {
      super.initialize(uri, conf);
      String name = checkedDevice(conf.get(DEVICE_KEY, "none"));
      device = name.equals("none") ? null : ModelledDevice.named(name);
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
      FSDataInputStream in = super.open(f, bufferSize);
      if (device == null || !isStoreFile(f)) {
        return in;
      }
      return new FSDataInputStream(new DelayedInputStream(in, device));
    }
  }
}
