package dev.blockcache.bucket.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;

/**
 * O_DIRECT's rules in one place: buffers, file offsets and lengths are multiples of {@link #ALIGNMENT} (the kernel
 * fails a misaligned buffer or offset with EINVAL), and the pooled allocator that hands out such buffers.
 *
 * <p>Thread-safety: stateless; the allocator is netty's thread-safe pooled allocator.
 */
final class DirectIo {
  /**
   * Bytes of alignment O_DIRECT needs: 4096, the largest logical block size of common devices and file systems and a
   * multiple of the smaller ones (512), so one value serves them all.
   */
  static final int ALIGNMENT = 4096;

  /** Pooled direct buffers whose memory addresses are {@link #ALIGNMENT}-aligned; one arena per core, no heap. */
  private static final PooledByteBufAllocator ALIGNED = new PooledByteBufAllocator(true, 0,
      PooledByteBufAllocator.defaultNumDirectArena(), PooledByteBufAllocator.defaultPageSize(),
      PooledByteBufAllocator.defaultMaxOrder(), PooledByteBufAllocator.defaultSmallCacheSize(),
      PooledByteBufAllocator.defaultNormalCacheSize(), PooledByteBufAllocator.defaultUseCacheForAllThreads(),
      ALIGNMENT);

  private DirectIo() {}

  static long alignDown(long position) {
    return position & -ALIGNMENT;
  }

  static long alignUp(long position) {
    return (position + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /**
   * A pooled direct buffer of exactly {@code length} bytes (a multiple of {@link #ALIGNMENT}) at an aligned address;
   * the caller owns it and releases it.
   */
  static ByteBuf alignedBuffer(int length) {
    return ALIGNED.directBuffer(length, length);
  }

  /** An unpooled aligned buffer of {@code length} zeros, for one-off use (preallocation); the GC frees it. */
  static ByteBuffer alignedZeros(int length) {
    return ByteBuffer.allocateDirect(length + ALIGNMENT).alignedSlice(ALIGNMENT).limit(length).slice();
  }
}
