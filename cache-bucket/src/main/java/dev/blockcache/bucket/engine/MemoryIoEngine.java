package dev.blockcache.bucket.engine;

import io.netty.buffer.ByteBuf;

/**
 * An engine held in memory as segments of {@link #segmentSize()} bytes (the last one may be shorter), all allocated
 * when the engine is made: the configured capacity is exactly the memory it takes, and an engine larger than the
 * JVM's {@link MemoryLimit} allows is refused before anything is allocated. Reads and writes that span
 * segments are split; {@link #segment} hands out a segment's buffer for zero-copy reads.
 *
 * <p>Thread-safety: as {@link IoEngine}. Segment buffers are used only through absolute-index methods, which do not
 * touch their reader or writer index, so threads share them safely.
 */
abstract class MemoryIoEngine extends IoEngine {
  private final ByteBuf[] segments;

  /**
   * Allocates every segment, after {@code limit} has checked that the JVM lets it: an engine that cannot fit is
   * refused before a byte is allocated.
   *
   * @throws dev.blockcache.config.ConfigException naming {@code hbase.bucketcache.size} when it does not fit
   */
  MemoryIoEngine(String spec, long capacity, int segmentSize, MemoryLimit limit) {
    super(spec, capacity, segmentSize);
    limit.check(spec, capacity);
    long count = (capacity + segmentSize - 1) / segmentSize;
    if (count > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(spec + ": " + count + " segments is too many");
    }
    segments = new ByteBuf[(int) count];
    try {
      for (int i = 0; i < segments.length; i++) {
        int size = (int) Math.min(segmentSize, capacity - (long) i * segmentSize);
        segments[i] = allocateSegment(size);
      }
    } catch (RuntimeException | OutOfMemoryError e) {
      releaseSegments();
      throw e;
    }
  }

  /** A zero-filled buffer of exactly {@code size} bytes, owned by this engine. */
  abstract ByteBuf allocateSegment(int size);

  @Override
  public final boolean isMemory() {
    return true;
  }

  @Override
  public final boolean isPersistent() {
    return false;
  }

  @Override
  protected final void writeImpl(long offset, ByteBuf src, int srcIndex, int length) {
    int done = 0;
    while (done < length) {
      long at = offset + done;
      int index = (int) (at % segmentSize());
      ByteBuf segment = segments[(int) (at / segmentSize())];
      int n = Math.min(length - done, segment.capacity() - index);
      segment.setBytes(index, src, srcIndex + done, n);
      done += n;
    }
  }

  @Override
  protected final void readImpl(long offset, ByteBuf dst, int length) {
    int done = 0;
    while (done < length) {
      long at = offset + done;
      int index = (int) (at % segmentSize());
      ByteBuf segment = segments[(int) (at / segmentSize())];
      int n = Math.min(length - done, segment.capacity() - index);
      dst.writeBytes(segment, index, n);
      done += n;
    }
  }

  @Override
  protected final ByteBuf segmentImpl(int index) {
    return segments[index];
  }

  @Override
  protected final void closeImpl() {
    releaseSegments();
  }

  private void releaseSegments() {
    for (int i = 0; i < segments.length; i++) {
      if (segments[i] != null) {
        segments[i].release();
        segments[i] = null;
      }
    }
  }
}
