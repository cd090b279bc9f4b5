package dev.blockcache.bucket.write;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockReader;
import dev.blockcache.buffer.BlockBuf;
import dev.blockcache.buffer.ScopedBlockView;
import dev.blockcache.buffer.ViewOwner;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

/**
 * The bytes of a block while it waits for a writer: a buffer the L2 holds one reference to, either a heap copy made
 * by {@code cacheBlock} ({@link #copyOf}) or the caller's own immutable buffer taken by {@code handOver}
 * ({@link #takeOver}, no copy). Gets read it through views while it waits.
 *
 * <h2>Holds</h2>
 * The buffer's one reference is released when the last of these holds is dropped:
 * <ol>
 *   <li>the pipeline's hold, taken at creation and dropped by {@link #release()} once the block has gone through its
 *       writer or was never queued (whatever the outcome: written, withdrawn, dropped, refused);</li>
 *   <li>one hold per view handed out by {@link #tryView()} or lent by {@link #tryRead}, dropped when that view is
 *       released or that call returns.</li>
 * </ol>
 * A view is taken only while some hold is left ({@link #tryView()} fails once the count reached 0), so a get that
 * found the block just before its writer let go either holds the bytes or falls through to the index, where the
 * writer published the block before it let go. The count is this class's, not the buffer's: a released pooled
 * buffer may be recycled for another block, and retaining it would then succeed on the wrong bytes.
 *
 * <p>Thread-safety: safe for concurrent use; the readable region and category are fixed at creation.
 */
public final class WaitingBlock implements ViewOwner {
  private final ByteBuf buffer;
  private final int offset;
  private final int length;
  private final BlockCategory category;
  /** The pipeline's hold plus one per live view; 0 means the buffer is released. */
  private final AtomicInteger holds = new AtomicInteger(1);

  private WaitingBlock(ByteBuf buffer, BlockCategory category) {
    this.buffer = buffer;
    this.offset = buffer.readerIndex();
    this.length = buffer.readableBytes();
    this.category = category;
  }

  /**
   * A heap copy of {@code block}'s readable bytes; {@code block}'s reference count and indexes are not changed (the
   * caller keeps and releases it).
   */
  public static WaitingBlock copyOf(ByteBuf block, BlockCategory category) {
    int length = block.readableBytes();
    byte[] bytes;
    if (block.hasArray()) {
      int from = block.arrayOffset() + block.readerIndex();
      bytes = Arrays.copyOfRange(block.array(), from, from + length); // one pass: no zeroing before the copy
    } else {
      bytes = new byte[length];
      block.getBytes(block.readerIndex(), bytes);
    }
    return new WaitingBlock(Unpooled.wrappedBuffer(bytes), category);
  }

  /**
   * {@code block} itself, no copy: takes over the caller's one reference, which this object releases when its last
   * hold goes (see the class notes). Nobody may write to {@code block} from now on.
   */
  public static WaitingBlock takeOver(ByteBuf block, BlockCategory category) {
    return new WaitingBlock(block, category);
  }

  public BlockCategory category() {
    return category;
  }

  /** The number of block bytes. */
  public int length() {
    return length;
  }

  /**
   * The buffer holding the block, its bytes at {@code [readerIndex, readerIndex + length)}; valid while the caller
   * holds the pipeline's hold (a writer, until it calls {@link #release()}). The caller must neither release it nor
   * move its indexes.
   */
  public ByteBuf bytes() {
    return buffer;
  }

  /** The CRC32C of the block bytes. */
  public int crc32c() {
    CRC32C crc = new CRC32C();
    if (buffer.hasArray()) {
      crc.update(buffer.array(), buffer.arrayOffset() + offset, length);
    } else {
      crc.update(buffer.nioBuffer(offset, length));
    }
    return (int) crc.getValue();
  }

  /**
   * A new read-only view of the block, or null if the buffer was already released (its writer finished with it): the
   * caller then looks in the index. The caller owns the view's one reference and must release it.
   */
  public ByteBuf tryView() {
    if (!tryHold()) {
      return null;
    }
    return BlockBuf.of(buffer, offset, length, this, 0);
  }

  /**
   * Lends the block to {@code reader} for one call through the thread's {@link ScopedBlockView}; nothing changes
   * hands.
   *
   * @return false, without calling the reader, if the buffer was already released
   */
  public boolean tryRead(BlockReader reader) {
    if (!tryHold()) {
      return false;
    }
    try {
      ScopedBlockView.read(buffer, offset, length, reader);
      return true;
    } finally {
      drop();
    }
  }

  /** Drops the pipeline's hold: called once, by whoever finished with the block last on the write side. */
  public void release() {
    drop();
  }

  @Override
  public void viewReleased(long token) {
    drop();
  }

  private boolean tryHold() {
    int n = holds.get();
    while (n > 0) {
      if (holds.compareAndSet(n, n + 1)) {
        return true;
      }
      n = holds.get();
    }
    return false;
  }

  private void drop() {
    if (holds.decrementAndGet() == 0) {
      buffer.release();
    }
  }
}
