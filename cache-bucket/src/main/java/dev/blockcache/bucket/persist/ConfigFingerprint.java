package dev.blockcache.bucket.persist;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The 64-bit identity of the configuration a checkpoint belongs to: capacity, bucket sizes, the bucket capacity
 * derived from them ({@code ItemSizes.bucketCapacity}, whose rule may change between versions) and engine spec. A
 * checkpoint with another fingerprint describes another layout of the device and is discarded.
 *
 * <p>Thread-safety: stateless.
 */
public final class ConfigFingerprint {
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private ConfigFingerprint() {}

  /**
   * The text the fingerprint hashes, for a cache of {@code capacity} bytes in buckets of {@code bucketCapacity} bytes
   * holding items of {@code bucketSizes}, on an engine whose spec is {@code engineSpec}; also what the mismatch log
   * line shows.
   */
  public static String describe(long capacity, int[] bucketSizes, int bucketCapacity, String engineSpec) {
    return "capacity=" + capacity + " sizes=" + Arrays.toString(bucketSizes) + " bucket=" + bucketCapacity
        + " engine=" + engineSpec;
  }

  /** The fingerprint of a configuration's {@link #describe description}. */
  public static long of(String text) {
    long h = FNV_OFFSET;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * FNV_PRIME;
    }
    return h;
  }
}
