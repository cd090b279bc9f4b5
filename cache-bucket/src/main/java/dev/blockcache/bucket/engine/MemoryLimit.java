package dev.blockcache.bucket.engine;

import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * How much memory of one kind (Java heap or direct memory) the JVM lets a memory engine take, checked before the
 * engine allocates anything: an engine larger than what is left would allocate for seconds and then die with
 * {@link OutOfMemoryError}, so it is refused at start with a {@link ConfigException} naming
 * {@value BucketCacheKeys#SIZE}, the size asked for, the limit found and the JVM flag that sets it.
 *
 * <p>What is left is the limit minus what is in use when the engine is made; an engine that fits leaves nothing
 * else room, so the rule is a floor, not a sizing guide (docs/operations.md, "Memory engines").
 *
 * <p>Thread-safety: immutable.
 */
public record MemoryLimit(String kind, String flag, long limitBytes, long usedBytes) {

  /** Direct memory: {@code -XX:MaxDirectMemorySize} (the max heap when unset), less the direct buffers in use. */
  public static MemoryLimit direct() {
    return new MemoryLimit("direct memory", "-XX:MaxDirectMemorySize", PlatformDependent.maxDirectMemory(),
        directInUse());
  }

  /** The Java heap: {@code -Xmx} ({@link Runtime#maxMemory()}), less the heap in use. */
  public static MemoryLimit heap() {
    Runtime runtime = Runtime.getRuntime();
    return new MemoryLimit("heap", "-Xmx", runtime.maxMemory(), runtime.totalMemory() - runtime.freeMemory());
  }

  /** Bytes an engine may still take. */
  public long availableBytes() {
    return Math.max(0, limitBytes - usedBytes);
  }

  /**
   * Refuses an engine of {@code capacity} bytes that does not fit in {@link #availableBytes()}.
   *
   * @throws ConfigException naming {@value BucketCacheKeys#SIZE}, the size, the limit and the flag
   */
  public void check(String spec, long capacity) {
    if (capacity <= availableBytes()) {
      return;
    }
    throw new ConfigException(BucketCacheKeys.SIZE, megabytes(capacity) + " (" + capacity + " bytes)",
        String.format(Locale.ROOT, "with %s=%s, a size that fits in the %s left: %s allows %s, %s of it in use, so"
            + " at most %s; raise %s or lower %s", BucketCacheKeys.IOENGINE, spec, kind, flag,
            megabytes(limitBytes), megabytes(usedBytes), megabytes(availableBytes()), flag, BucketCacheKeys.SIZE));
  }

  private static String megabytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024.0));
  }

  /** Direct memory reserved now: the JDK's direct buffer pool plus netty's own untracked allocations. */
  private static long directInUse() {
    long used = 0;
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if ("direct".equals(pool.getName())) {
        used += Math.max(0, pool.getMemoryUsed());
      }
    }
    long netty = PlatformDependent.usedDirectMemory();
    return used + Math.max(0, netty);
  }
}
