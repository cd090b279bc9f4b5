package dev.blockcache.bucket.read;

import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.engine.IoEngine;

/**
 * How a {@link SlotReader} serves a slot: as a zero-copy view (memory engines, unless
 * {@code hbase.bucketcache.read.copy} is set) or as a copy, and whether blocks read from a device have their CRC32C
 * checked ({@code hbase.bucketcache.checksum.verify}).
 *
 * <p>Thread-safety: immutable.
 *
 * @param zeroCopy gets on a memory engine return views of the slot itself
 * @param verifyChecksum reads from a device check the block's CRC32C
 */
public record SlotReadPolicy(boolean zeroCopy, boolean verifyChecksum) {
  /** The policy {@code config} asks for on {@code engine}. */
  public static SlotReadPolicy of(BucketCacheConfig config, IoEngine engine) {
    return new SlotReadPolicy(engine.isMemory() && !config.copyOnRead(), config.checksumVerify());
  }
}
