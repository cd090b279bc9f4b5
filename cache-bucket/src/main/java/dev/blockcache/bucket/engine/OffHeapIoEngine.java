package dev.blockcache.bucket.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;

/**
 * {@code hbase.bucketcache.ioengine=offheap}: slots in direct-memory segments allocated through netty when the engine
 * is made. The engine takes exactly its capacity of direct memory, never more, and returns all of it on close. Each
 * segment is zeroed when allocated, so start-up touches every page of the engine (seconds per GB): the memory is
 * really the process's from then on.
 *
 * <p>Thread-safety: as {@link IoEngine}.
 */
public final class OffHeapIoEngine extends MemoryIoEngine {
  public static final String SCHEME = "offheap";

  /** Unpooled, so that each segment is its own allocation, freed at once on close; leak detection does not apply. */
  private static final UnpooledByteBufAllocator ALLOCATOR = new UnpooledByteBufAllocator(true, true);

  /**
   * @throws dev.blockcache.config.ConfigException naming {@code hbase.bucketcache.size} if {@code capacity} does not
   *     fit in the direct memory left ({@link MemoryLimit#direct()})
   */
  public OffHeapIoEngine(long capacity, int segmentSize) {
    this(capacity, segmentSize, MemoryLimit.direct());
  }

  /** An engine checked against {@code limit} instead of this JVM's direct memory (for tests). */
  OffHeapIoEngine(long capacity, int segmentSize, MemoryLimit limit) {
    super(SCHEME, capacity, segmentSize, limit);
  }

  @Override
  ByteBuf allocateSegment(int size) {
    ByteBuf segment = ALLOCATOR.directBuffer(size, size);
    segment.setZero(0, size);
    return segment;
  }
}
