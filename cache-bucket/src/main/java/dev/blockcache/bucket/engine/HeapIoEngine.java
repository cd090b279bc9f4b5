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

  public HeapIoEngine(long capacity, int segmentSize) {
    super(SCHEME, capacity, segmentSize);
  }

  @Override
  ByteBuf allocateSegment(int size) {
    return Unpooled.wrappedBuffer(new byte[size]);
  }
}
