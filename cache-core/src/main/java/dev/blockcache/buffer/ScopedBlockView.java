package dev.blockcache.buffer;

import dev.blockcache.api.BlockReader;
import io.netty.buffer.ByteBuf;

/**
 * A {@link BlockBuf} that one thread reuses for every scoped read ({@link dev.blockcache.api.BlockCache#read}): it
 * is opened over a region for the duration of one {@link BlockReader} call and closed when the call returns, so a
 * scoped read allocates nothing.
 *
 * <h2>States</h2>
 * <ol>
 *   <li><b>Closed</b> (between reads): its reference count is 0, so every access throws netty's
 *       {@link io.netty.util.IllegalReferenceCountException}, from any thread, through the view or any slice or
 *       duplicate of it. A reader that kept the view past its call fails here, loudly.</li>
 *   <li><b>Open</b> (during one reader call): rebound to the block's region, one reference, readable. The reader may
 *       neither {@link #retain()} nor {@link #release()} it: both throw {@link IllegalStateException}, because the
 *       view is the thread's to reuse and the region is the cache's to release.</li>
 * </ol>
 * A scoped read started inside a reader (a nested read on the same thread) finds the thread's view open and reads
 * through a fresh {@link BlockBuf} instead, closed the same way when its call returns.
 *
 * <p>What reuse cannot catch: a reference kept from an earlier read and touched during a later scoped read on the
 * same thread sees the later block, because it is the same object. Readers keep nothing, as {@link BlockReader}
 * says; the closed state catches every use outside a read.
 *
 * <p>Thread-safety: confined to the thread that owns it (one per thread, from a {@link ThreadLocal}).
 */
public final class ScopedBlockView extends BlockBuf {
  private static final ThreadLocal<ScopedBlockView> THREAD_VIEW = ThreadLocal.withInitial(ScopedBlockView::new);

  private boolean open;

  private ScopedBlockView() {
    super.release(); // born closed
  }

  /**
   * Lends {@code backing[offset, offset + length)} to {@code reader} as a read-only view valid only during the call.
   * {@code backing}'s reference count is not changed: the caller keeps {@code backing} alive until this returns.
   */
  public static void read(ByteBuf backing, int offset, int length, BlockReader reader) {
    read(backing, null, offset, length, reader);
  }

  /** The same over {@code heap[offset, offset + length)}, read directly (see {@link BlockBuf#ofHeap}). */
  static void readHeap(byte[] heap, int offset, int length, BlockReader reader) {
    read(null, heap, offset, length, reader);
  }

  private static void read(ByteBuf backing, byte[] heap, int offset, int length, BlockReader reader) {
    ScopedBlockView view = THREAD_VIEW.get();
    if (view.open) {
      readNested(backing, heap, offset, length, reader);
      return;
    }
    view.rebind(backing, heap, offset, length);
    view.resetRefCnt();
    view.open = true;
    try {
      reader.read(view);
    } finally {
      view.open = false;
      view.close();
    }
  }

  private static void readNested(ByteBuf backing, byte[] heap, int offset, int length, BlockReader reader) {
    BlockReader.lend(heap != null ? BlockBuf.ofHeap(heap, offset, length)
        : BlockBuf.of(backing, offset, length, null, 0L), reader);
  }

  private void close() {
    super.release();
  }

  /** Refused: a scoped view is lent for one call; copy the bytes, or use {@code getBlock} to own a block. */
  @Override
  public ByteBuf retain() {
    throw notOwned("retained");
  }

  /** Refused, as {@link #retain()}. */
  @Override
  public ByteBuf retain(int increment) {
    throw notOwned("retained");
  }

  /** Refused: the cache releases the view when the reader returns. */
  @Override
  public boolean release() {
    throw notOwned("released");
  }

  /** Refused, as {@link #release()}. */
  @Override
  public boolean release(int decrement) {
    throw notOwned("released");
  }

  private static IllegalStateException notOwned(String what) {
    return new IllegalStateException("a block lent to a scoped read cannot be " + what
        + ": it is valid only during the reader's call (copy its bytes, or use getBlock to own a block)");
  }
}
