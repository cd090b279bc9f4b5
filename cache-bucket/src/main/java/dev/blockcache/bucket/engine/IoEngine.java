package dev.blockcache.bucket.engine;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where the L2 keeps its slots: a byte-addressed store of {@link #capacity()} bytes.
 *
 * <h2>Design notes</h2>
 * The SPI is narrow on purpose. The final public methods check bounds and state, count bytes, operations, time and
 * errors, and map an implementation's unchecked IO failures to {@link IOException}; the protected {@code *Impl}
 * methods then speak offsets and buffers only. An engine never sees a key, an entry or a block header, so the cache's
 * correctness never depends on an engine, and a new engine (a file, several files, a memory map, a device model) is a
 * few methods.
 *
 * <p>Memory is addressed in segments of {@link #segmentSize()} bytes: any range inside one segment is contiguous, so
 * a memory engine can hand out a zero-copy {@link #segment(long) segment buffer}. The cache aligns its buckets to
 * segments, so a slot never straddles two.
 *
 * <h2>Ownership</h2>
 * {@link #write} never takes the caller's reference; {@link #read} returns a buffer the caller owns and releases;
 * {@link #segment} returns the engine's own buffer, not retained, valid until {@link #close()}.
 *
 * <p>Thread-safety: reads and writes of disjoint ranges may run concurrently from any threads; {@link #close()} must
 * not race with them (the cache closes an engine only once no reader holds a slot).
 */
public abstract class IoEngine implements AutoCloseable {
  private final String spec;
  private final long capacity;
  private final int segmentSize;
  private final LongAdder reads = new LongAdder();
  private final LongAdder writes = new LongAdder();
  private final LongAdder bytesRead = new LongAdder();
  private final LongAdder bytesWritten = new LongAdder();
  private final LongAdder readNanos = new LongAdder();
  private final LongAdder writeNanos = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private volatile boolean closed;

  protected IoEngine(String spec, long capacity, int segmentSize) {
    if (capacity <= 0 || segmentSize <= 0) {
      throw new IllegalArgumentException(spec + ": capacity " + capacity + " and segment size " + segmentSize
          + " must be positive");
    }
    this.spec = spec;
    this.capacity = capacity;
    this.segmentSize = segmentSize;
  }

  /** The {@code hbase.bucketcache.ioengine} value this engine was made from. */
  public final String spec() {
    return spec;
  }

  public final long capacity() {
    return capacity;
  }

  /** Bytes per segment: a range inside one segment-aligned segment is contiguous. */
  public final int segmentSize() {
    return segmentSize;
  }

  /** Whether {@link #segment} gives zero-copy access to the engine's memory. */
  public abstract boolean isMemory();

  /** Whether the bytes survive a restart of the process. */
  public abstract boolean isPersistent();

  /** Writes {@code src}'s readable bytes at {@code offset}; {@code src}'s indexes and reference count do not change. */
  public final void write(long offset, ByteBuf src) throws IOException {
    int length = src.readableBytes();
    checkOpen();
    checkRange(offset, length);
    long start = System.nanoTime();
    try {
      writeImpl(offset, src, src.readerIndex(), length);
    } catch (IOException e) {
      errors.increment();
      throw e;
    } catch (UncheckedIOException e) {
      errors.increment();
      throw e.getCause();
    }
    writeNanos.add(System.nanoTime() - start);
    writes.increment();
    bytesWritten.add(length);
  }

  /**
   * Reads {@code length} bytes at {@code offset} into a new buffer, of which the caller owns one reference and must
   * release it. On failure no buffer is left allocated.
   */
  public final ByteBuf read(long offset, int length) throws IOException {
    checkOpen(); // before allocating: a bad length must not allocate (readInto checks again, cheaply)
    checkRange(offset, length);
    ByteBuf dst = allocateReadBuffer(length);
    try {
      readInto(offset, dst, length);
    } catch (IOException | RuntimeException e) {
      dst.release();
      throw e;
    }
    return dst;
  }

  /**
   * Appends {@code length} bytes read at {@code offset} to {@code dst} (from its writer index, which must leave room
   * for them). The caller keeps ownership of {@code dst}; on failure its contents past the old writer index are
   * unspecified. File engines read fastest into a direct buffer.
   */
  public final void readInto(long offset, ByteBuf dst, int length) throws IOException {
    checkOpen();
    checkRange(offset, length);
    if (dst.maxWritableBytes() < length) {
      throw new IllegalArgumentException(spec + ": a read of " + length + " bytes into a buffer with room for "
          + dst.maxWritableBytes());
    }
    long start = System.nanoTime();
    int from = dst.writerIndex();
    try {
      readImpl(offset, dst, length);
    } catch (UncheckedIOException e) {
      errors.increment();
      throw e.getCause();
    } catch (IOException | RuntimeException e) {
      errors.increment();
      throw e;
    }
    if (dst.writerIndex() - from != length) {
      int got = dst.writerIndex() - from;
      errors.increment();
      throw new IOException(spec + ": short read at offset " + offset + ": " + got + " of " + length + " bytes");
    }
    readNanos.add(System.nanoTime() - start);
    reads.increment();
    bytesRead.add(length);
  }

  /**
   * Memory engines: the engine's own buffer for the segment holding {@code offset}, not retained, valid until
   * {@link #close()}; the slot at {@code offset} starts at index {@code offset % segmentSize()} of it.
   *
   * @throws UnsupportedOperationException if the engine is not {@link #isMemory() memory}
   */
  public final ByteBuf segment(long offset) {
    checkOpen();
    checkRange(offset, 0);
    return segmentImpl((int) (offset / segmentSize));
  }

  /**
   * Memory engines: the segment buffer (as {@link #segment}) for a write of {@code length} bytes at {@code offset}
   * that the caller makes straight into it, from index {@code offset % segmentSize()}; checked as {@link #write}
   * checks and counted as one write of {@code length} bytes, but not timed (the caller's copy is the write).
   *
   * @throws IndexOutOfBoundsException if the range is outside the capacity or crosses a segment boundary
   * @throws UnsupportedOperationException if the engine is not {@link #isMemory() memory}
   */
  public final ByteBuf segmentForWrite(long offset, int length) {
    checkOpen();
    checkRange(offset, length);
    if (offset % segmentSize + length > segmentSize) {
      throw new IndexOutOfBoundsException(
          spec + ": range [" + offset + ", +" + length + ") crosses a segment of " + segmentSize + " bytes");
    }
    ByteBuf segment = segmentImpl((int) (offset / segmentSize));
    writes.increment();
    bytesWritten.add(length);
    return segment;
  }

  /** Forces written bytes to the device (nothing for memory engines). */
  public final void sync() throws IOException {
    checkOpen();
    try {
      syncImpl();
    } catch (IOException e) {
      errors.increment();
      throw e;
    }
  }

  /** Counters since the engine was made. */
  public final EngineStats stats() {
    return new EngineStats(reads.sum(), writes.sum(), bytesRead.sum(), bytesWritten.sum(), readNanos.sum(),
        writeNanos.sum(), errors.sum());
  }

  /** Releases the engine's memory or files; idempotent. Every later call but this one throws. */
  @Override
  public final void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    closeImpl();
  }

  public final boolean isClosed() {
    return closed;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(spec + " engine is closed");
    }
  }

  private void checkRange(long offset, int length) {
    if (offset < 0 || length < 0 || offset > capacity - length) {
      throw new IndexOutOfBoundsException(
          spec + ": range [" + offset + ", +" + length + ") outside capacity " + capacity);
    }
  }

  /** The buffer {@link #read} fills: heap by default; file engines use pooled direct buffers. */
  protected ByteBuf allocateReadBuffer(int length) {
    return io.netty.buffer.ByteBufAllocator.DEFAULT.heapBuffer(length, length);
  }

  /** Writes {@code length} bytes of {@code src} from {@code srcIndex} at {@code offset}; the range is checked. */
  protected abstract void writeImpl(long offset, ByteBuf src, int srcIndex, int length) throws IOException;

  /** Appends {@code length} bytes from {@code offset} to {@code dst}; the range is checked. */
  protected abstract void readImpl(long offset, ByteBuf dst, int length) throws IOException;

  /** Memory engines return segment {@code index}'s buffer. */
  protected ByteBuf segmentImpl(int index) {
    throw new UnsupportedOperationException(spec + " is not a memory engine");
  }

  protected void syncImpl() throws IOException {}

  /** Releases everything; called once. */
  protected abstract void closeImpl();
}
