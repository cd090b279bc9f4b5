package dev.blockcache.buffer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.GatheringByteChannel;
import java.util.Arrays;

/**
 * A read-only, reference-counted view of {@code length} bytes of a backing buffer or of a heap array: what a cache
 * hands a reader.
 *
 * <h2>Ownership</h2>
 * A view is created with one reference, owned by whoever the cache returns it to. The view never retains or releases
 * its backing buffer: the {@link ViewOwner} that created it keeps the backing memory alive until it is told, through
 * {@link ViewOwner#viewReleased}, that the view's last reference is gone. After that every access throws
 * {@link io.netty.util.IllegalReferenceCountException}, so a released view can never read memory that was reused.
 *
 * <p>Each view has its own reference count, private to the reader that holds it until it shares the view: a hit never
 * increments a counter that other readers' threads touch. Views are tracked by netty's leak detector when its level
 * is {@code ADVANCED} or {@code PARANOID} (every test runs at {@code PARANOID}), so a view that is dropped without a
 * release is reported. At netty's default {@code SIMPLE} level views are not tracked: a hit is the hottest path of a
 * cache, and sampling views (netty samples one in 128 at that level) would make a sampled hit capture a stack trace,
 * which costs far more than the hit itself.
 *
 * <p>Every mutator throws {@link java.nio.ReadOnlyBufferException}; {@link #hasArray()} and {@link #hasMemoryAddress()}
 * are false so that the cached bytes cannot be reached for writing (see {@code ReadOnlyRefCountedBuf}).
 *
 * <p>Two subclasses: {@link OwnedBlockBuf}, a view that tells its {@link ViewOwner} when it is released (the L2's
 * slot views), and {@link ScopedBlockView}, a view that a thread reuses for scoped reads: it is rebound to another
 * region per read and closed (released) between reads, which is why the region fields are not final.
 *
 * <p>Thread-safety: reference counting is thread-safe; reading indexes are not (as for every {@link ByteBuf}).
 */
public sealed class BlockBuf extends ReadOnlyRefCountedBuf permits OwnedBlockBuf, ScopedBlockView {
  private static final ResourceLeakDetector<ByteBuf> LEAKS =
      ResourceLeakDetectorFactory.instance().newResourceLeakDetector(ByteBuf.class);
  private static final VarHandle SHORT_BE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle SHORT_LE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * The buffer viewed, or null for a view of a heap array ({@link #heap}); changed only by {@link #rebind}, which a
   * {@link ScopedBlockView} calls while closed.
   */
  private ByteBuf backing;
  /**
   * The heap array viewed (view index {@code i} is {@code heap[offset + i]}), or null for a view of {@link #backing}.
   * A heap view reads the array directly: no buffer object per cached block, and one dependent load fewer on a
   * cache's hit path.
   */
  private byte[] heap;
  private int offset;
  private final ResourceLeakTracker<ByteBuf> leak;

  /**
   * A view of {@code length} bytes; its length is netty's {@code maxCapacity} (no field of its own), so that a view
   * of a heap block is 56 bytes, the whole allocation of a hit.
   */
  BlockBuf(ByteBuf backing, byte[] heap, int offset, int length) {
    super(length);
    this.backing = backing;
    this.heap = heap;
    this.offset = offset;
    setIndex(0, length);
    this.leak = tracked() ? LEAKS.track(this) : null;
  }

  /** An untracked, ownerless view of nothing, for a {@link ScopedBlockView} to {@link #rebind}. */
  BlockBuf() {
    super(0);
    this.backing = Unpooled.EMPTY_BUFFER;
    this.leak = null;
  }

  /**
   * Points this view at {@code backing[offset, offset + length)}, or at {@code heap[offset, offset + length)} when
   * {@code heap} is not null (then {@code backing} is null), with its indexes at {@code 0, length}; like every view it
   * neither retains nor releases {@code backing}. Only for a {@link ScopedBlockView}, on its own thread, between
   * scoped reads.
   */
  final void rebind(ByteBuf backing, byte[] heap, int offset, int length) {
    if (heap == null) {
      checkRegion(backing, offset, length);
    } else {
      checkRegion(heap, offset, length);
    }
    this.backing = backing;
    this.heap = heap;
    this.offset = offset;
    maxCapacity(length);
    setIndex(0, length);
  }

  private static void checkRegion(ByteBuf backing, int offset, int length) {
    if (offset < 0 || length < 0 || offset > backing.capacity() - length) {
      throw new IndexOutOfBoundsException(
          "view [" + offset + ", +" + length + ") outside backing capacity " + backing.capacity());
    }
  }

  private static void checkRegion(byte[] heap, int offset, int length) {
    if (offset < 0 || length < 0 || offset > heap.length - length) {
      throw new IndexOutOfBoundsException(
          "view [" + offset + ", +" + length + ") outside an array of " + heap.length + " bytes");
    }
  }

  /**
   * A view of {@code backing[offset, offset + length)}; the caller owns the view's one reference. {@code owner} (may
   * be null) is told once when that reference, and any taken from it, are all released.
   */
  public static BlockBuf of(ByteBuf backing, int offset, int length, ViewOwner owner, long token) {
    checkRegion(backing, offset, length);
    return owner == null ? new BlockBuf(backing, null, offset, length)
        : new OwnedBlockBuf(backing, offset, length, owner, token);
  }

  /**
   * A view of {@code heap[offset, offset + length)}; the caller owns the view's one reference. The region is not
   * checked here, on the hit path: {@link HeapBlock} checks it once when it is built.
   */
  static BlockBuf ofHeap(byte[] heap, int offset, int length) {
    return new BlockBuf(null, heap, offset, length);
  }

  /**
   * The buffer that the reads this view does not do itself go to: {@link #backing}, or for a heap view a new wrapper
   * of the whole array (backing index {@code offset + i} is view index {@code i} either way). Only the rarer bulk
   * reads (streams, channels) pay for the wrapper.
   */
  private ByteBuf delegate() {
    ByteBuf b = backing;
    return b != null ? b : Unpooled.wrappedBuffer(heap);
  }

  /** Whether new views are tracked: at netty's debugging leak levels only. */
  private static boolean tracked() {
    // Ordinals rather than Enum.compareTo: its class checks would be compiled into every get that returns a view.
    return ResourceLeakDetector.getLevel().ordinal() >= ResourceLeakDetector.Level.ADVANCED.ordinal();
  }

  @Override
  protected void deallocate() {
    if (leak != null) {
      leak.close(this);
    }
  }

  /** Yes: deallocating only closes the leak tracker, which a second close leaves closed. */
  @Override
  protected boolean releasesPlainly() {
    return true;
  }

  @Override
  public ByteBuf touch(Object hint) {
    if (leak != null) {
      leak.record(hint);
    }
    return this;
  }

  @Override
  public ByteBuf touch() {
    return touch(null);
  }

  // ---- shape --------------------------------------------------------------------------------------------------

  @Override
  public int capacity() {
    return maxCapacity();
  }

  @Override
  public ByteBufAllocator alloc() {
    ByteBuf b = backing;
    return b != null ? b.alloc() : UnpooledByteBufAllocator.DEFAULT;
  }

  @Override
  @SuppressWarnings("deprecation")
  public ByteOrder order() {
    return ByteOrder.BIG_ENDIAN;
  }

  /** Null: a view is not a derived buffer whose parent a reader may reach. */
  @Override
  public ByteBuf unwrap() {
    return null;
  }

  @Override
  public boolean isDirect() {
    ByteBuf b = backing;
    return b != null && b.isDirect();
  }

  // ---- reads ---------------------------------------------------------------------------------------------------

  @Override
  protected byte _getByte(int index) {
    byte[] a = heap;
    return a != null ? a[offset + index] : backing.getByte(offset + index);
  }

  @Override
  protected short _getShort(int index) {
    byte[] a = heap;
    return a != null ? (short) SHORT_BE.get(a, offset + index) : backing.getShort(offset + index);
  }

  @Override
  protected short _getShortLE(int index) {
    byte[] a = heap;
    return a != null ? (short) SHORT_LE.get(a, offset + index) : backing.getShortLE(offset + index);
  }

  @Override
  protected int _getUnsignedMedium(int index) {
    byte[] a = heap;
    if (a == null) {
      return backing.getUnsignedMedium(offset + index);
    }
    int i = offset + index;
    return (a[i] & 0xFF) << 16 | (a[i + 1] & 0xFF) << 8 | (a[i + 2] & 0xFF);
  }

  @Override
  protected int _getUnsignedMediumLE(int index) {
    byte[] a = heap;
    if (a == null) {
      return backing.getUnsignedMediumLE(offset + index);
    }
    int i = offset + index;
    return (a[i] & 0xFF) | (a[i + 1] & 0xFF) << 8 | (a[i + 2] & 0xFF) << 16;
  }

  @Override
  protected int _getInt(int index) {
    byte[] a = heap;
    return a != null ? (int) INT_BE.get(a, offset + index) : backing.getInt(offset + index);
  }

  @Override
  protected int _getIntLE(int index) {
    byte[] a = heap;
    return a != null ? (int) INT_LE.get(a, offset + index) : backing.getIntLE(offset + index);
  }

  @Override
  protected long _getLong(int index) {
    byte[] a = heap;
    return a != null ? (long) LONG_BE.get(a, offset + index) : backing.getLong(offset + index);
  }

  @Override
  protected long _getLongLE(int index) {
    byte[] a = heap;
    return a != null ? (long) LONG_LE.get(a, offset + index) : backing.getLongLE(offset + index);
  }

  @Override
  public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
    checkIndex(index, length);
    byte[] a = heap;
    if (a != null) {
      dst.setBytes(dstIndex, a, offset + index, length);
    } else {
      backing.getBytes(offset + index, dst, dstIndex, length);
    }
    return this;
  }

  @Override
  public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
    checkIndex(index, length);
    byte[] a = heap;
    if (a != null) {
      System.arraycopy(a, offset + index, dst, dstIndex, length);
    } else {
      backing.getBytes(offset + index, dst, dstIndex, length);
    }
    return this;
  }

  @Override
  public ByteBuf getBytes(int index, ByteBuffer dst) {
    checkIndex(index, dst.remaining());
    byte[] a = heap;
    if (a != null) {
      dst.put(a, offset + index, dst.remaining());
    } else {
      backing.getBytes(offset + index, dst);
    }
    return this;
  }

  @Override
  public ByteBuf getBytes(int index, OutputStream out, int length) throws IOException {
    checkIndex(index, length);
    byte[] a = heap;
    if (a != null) {
      out.write(a, offset + index, length);
    } else {
      backing.getBytes(offset + index, out, length);
    }
    return this;
  }

  @Override
  public int getBytes(int index, GatheringByteChannel out, int length) throws IOException {
    checkIndex(index, length);
    return delegate().getBytes(offset + index, out, length);
  }

  @Override
  public int getBytes(int index, FileChannel out, long position, int length) throws IOException {
    checkIndex(index, length);
    return delegate().getBytes(offset + index, out, position, length);
  }

  /** A writable heap or direct copy, owned by the caller. */
  @Override
  public ByteBuf copy(int index, int length) {
    checkIndex(index, length);
    byte[] a = heap;
    if (a != null) {
      return Unpooled.wrappedBuffer(Arrays.copyOfRange(a, offset + index, offset + index + length));
    }
    return backing.copy(offset + index, length);
  }

  @Override
  public int nioBufferCount() {
    return 1;
  }

  /** A read-only {@link ByteBuffer} over the bytes; valid only while this view is. */
  @Override
  public ByteBuffer nioBuffer(int index, int length) {
    checkIndex(index, length);
    byte[] a = heap;
    if (a != null) {
      return ByteBuffer.wrap(a, offset + index, length).slice().asReadOnlyBuffer();
    }
    return backing.nioBuffer(offset + index, length).asReadOnlyBuffer();
  }

  @Override
  public ByteBuffer internalNioBuffer(int index, int length) {
    return nioBuffer(index, length);
  }

  @Override
  public ByteBuffer[] nioBuffers(int index, int length) {
    return new ByteBuffer[] {nioBuffer(index, length)};
  }
}
