package dev.blockcache.bucket.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * {@code hbase.bucketcache.ioengine=heap}: slots in {@code byte[]} segments on the Java heap.
 *
 * <p>Thread-safety: as {@link IoEngine}.
 */
public final class HeapIoEngine extends MemoryIoEngine {
  public static final String SCHEME = "heap";

  /**
   * @throws dev.blockcache.config.ConfigException naming {@code hbase.bucketcache.size} if {@code capacity} does not
   *     fit in the heap left ({@link MemoryLimit#heap()})
   */
  public HeapIoEngine(long capacity, int segmentSize) {
    this(capacity, segmentSize, MemoryLimit.heap());
  }

  /** An engine checked against {@code limit} instead of this JVM's heap (for tests). */
  HeapIoEngine(long capacity, int segmentSize, MemoryLimit limit) {
    super(SCHEME, capacity, segmentSize, limit);
  }

  @Override
  ByteBuf allocateSegment(int size) {
    return Unpooled.wrappedBuffer(new byte[size]);
  }
}
