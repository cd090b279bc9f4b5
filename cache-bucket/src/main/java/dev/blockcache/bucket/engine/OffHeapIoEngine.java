package dev.blockcache.bucket.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;

/**
 * {@code hbase.bucketcache.ioengine=offheap}: slots in direct-memory segments allocated through netty when the engine
 * is made. The engine takes exactly its capacity of direct memory, never more, and returns all of it on close.
 *
 * <p>Thread-safety: as {@link IoEngine}.
 */
public final class OffHeapIoEngine extends MemoryIoEngine {
  public static final String SCHEME = "offheap";

  /** Unpooled, so that each segment is its own allocation, freed at once on close; leak detection does not apply. */
  private static final UnpooledByteBufAllocator ALLOCATOR = new UnpooledByteBufAllocator(true, true);

  public OffHeapIoEngine(long capacity, int segmentSize) {
    super(SCHEME, capacity, segmentSize);
  }

  @Override
  ByteBuf allocateSegment(int size) {
    ByteBuf segment = ALLOCATOR.directBuffer(size, size);
    segment.setZero(0, size);
    return segment;
  }
}
