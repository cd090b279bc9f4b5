package dev.blockcache.buffer;

import io.netty.buffer.ByteBuf;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.FileChannel;
import java.nio.channels.ScatteringByteChannel;

/**
 * A reference-counted {@link ByteBuf} whose bytes and capacity cannot be changed through it: every mutator throws
 * {@link ReadOnlyBufferException}, and {@link #hasArray()} and {@link #hasMemoryAddress()} are false, so that no
 * caller can reach the memory behind it for writing. Its reader and writer indexes move as on any buffer.
 *
 * <p>Subclasses supply the reads and the reference counting's end ({@code deallocate}); {@link BlockBuf} is the one.
 *
 * <p>Thread-safety: holds no state of its own; reference counting is as in {@link RefCountedBuf}.
 */
abstract class ReadOnlyRefCountedBuf extends RefCountedBuf {
  ReadOnlyRefCountedBuf(int maxCapacity) {
    super(maxCapacity);
  }

  @Override
  public ByteBuf capacity(int newCapacity) {
    throw new ReadOnlyBufferException();
  }

  @Override
  public boolean isReadOnly() {
    return true;
  }

  @Override
  public ByteBuf asReadOnly() {
    return this;
  }

  @Override
  public boolean hasArray() {
    return false;
  }

  @Override
  public byte[] array() {
    throw new ReadOnlyBufferException();
  }

  @Override
  public int arrayOffset() {
    throw new ReadOnlyBufferException();
  }

  @Override
  public boolean hasMemoryAddress() {
    return false;
  }

  @Override
  public long memoryAddress() {
    throw new UnsupportedOperationException("a block view does not expose its memory address");
  }

  @Override
  protected void _setByte(int index, int value) {
    throw new ReadOnlyBufferException();
  }

  @Override
  protected void _setShort(int index, int value) {
    throw new ReadOnlyBufferException();
  }

  @Override
  protected void _setShortLE(int index, int value) {
    throw new ReadOnlyBufferException();
  }

  @Override
  protected void _setMedium(int index, int value) {
    throw new ReadOnlyBufferException();
  }

  @Override
  protected void _setMediumLE(int index, int value) {
    throw new ReadOnlyBufferException();
  }

  @Override
  protected void _setInt(int index, int value) {
    throw new ReadOnlyBufferException();
  }

  @Override
  protected void _setIntLE(int index, int value) {
    throw new ReadOnlyBufferException();
  }

  @Override
  protected void _setLong(int index, long value) {
    throw new ReadOnlyBufferException();
  }

  @Override
  protected void _setLongLE(int index, long value) {
    throw new ReadOnlyBufferException();
  }

  @Override
  public ByteBuf setBytes(int index, ByteBuf src, int srcIndex, int length) {
    throw new ReadOnlyBufferException();
  }

  @Override
  public ByteBuf setBytes(int index, byte[] src, int srcIndex, int length) {
    throw new ReadOnlyBufferException();
  }

  @Override
  public ByteBuf setBytes(int index, ByteBuffer src) {
    throw new ReadOnlyBufferException();
  }

  @Override
  public int setBytes(int index, InputStream in, int length) {
    throw new ReadOnlyBufferException();
  }

  @Override
  public int setBytes(int index, ScatteringByteChannel in, int length) {
    throw new ReadOnlyBufferException();
  }

  @Override
  public int setBytes(int index, FileChannel in, long position, int length) {
    throw new ReadOnlyBufferException();
  }

  @Override
  public ByteBuf setByte(int index, int value) {
    throw new ReadOnlyBufferException();
  }

  @Override
  public ByteBuf discardReadBytes() {
    throw new ReadOnlyBufferException();
  }

  @Override
  public ByteBuf discardSomeReadBytes() {
    throw new ReadOnlyBufferException();
  }

  /** 1, netty's code for "not enough room, capacity unchanged": a read-only buffer never grows. */
  @Override
  public int ensureWritable(int minWritableBytes, boolean force) {
    return 1;
  }

  @Override
  public ByteBuf ensureWritable(int minWritableBytes) {
    throw new ReadOnlyBufferException();
  }
}
