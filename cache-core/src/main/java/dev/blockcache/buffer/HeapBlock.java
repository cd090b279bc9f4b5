package dev.blockcache.buffer;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * One block held on the Java heap (by an L1 cache, or by the L2 while it waits for a writer): a private copy of the block's bytes and its category.
 *
 * <p>The bytes live in a {@code byte[]} that only this object references; readers get {@link BlockBuf} views of it.
 * Heap memory needs no reference counting: a view keeps the array reachable, so eviction simply drops the block and
 * the garbage collector reclaims the array once the last view is gone. Views have their own reference count (see
 * {@link BlockBuf}), so a hit touches no counter shared between readers.
 *
 * <p>Thread-safety: immutable after construction.
 */
public final class HeapBlock {
  /**
   * Estimated heap bytes an L1 entry costs beyond its block bytes: map node and table slot (~40), key (32), this
   * object (24), the backing buffer object (48), array header (16), the cache's entry object (~48) and the file
   * index node (~48), rounded up.
   */
  public static final int ENTRY_OVERHEAD = 256;

  private final BlockCategory category;
  /** The block's bytes; views read single values from it directly, without a hop through {@link #backing}. */
  private final byte[] bytes;
  /** {@link #bytes} wrapped whole, for the reads a view delegates (bulk copies, NIO buffers). */
  private final ByteBuf backing;

  private HeapBlock(BlockCategory category, byte[] bytes) {
    this.category = category;
    this.bytes = bytes;
    this.backing = Unpooled.wrappedBuffer(bytes);
  }

  /** A heap copy of {@code block}'s readable bytes; {@code block}'s reference count and indexes are not changed. */
  public static HeapBlock copyOf(ByteBuf block, BlockCategory category) {
    int length = block.readableBytes();
    byte[] bytes;
    if (block.hasArray()) {
      // One copy into a new array that the JIT need not zero first (new byte[] + getBytes writes every byte twice).
      int from = block.arrayOffset() + block.readerIndex();
      bytes = Arrays.copyOfRange(block.array(), from, from + length);
    } else {
      bytes = new byte[length];
      block.getBytes(block.readerIndex(), bytes);
    }
    return new HeapBlock(category, bytes);
  }

  public BlockCategory category() {
    return category;
  }

  /** The number of block bytes. */
  public int length() {
    return bytes.length;
  }

  /** The heap this entry is accounted as: block bytes plus {@link #ENTRY_OVERHEAD}. */
  public long heapSize() {
    return (long) length() + ENTRY_OVERHEAD;
  }

  /**
   * The CRC32C of the block bytes, computed over the backing array in place (a checksum over a read-only view would
   * copy the bytes through a temporary array first).
   */
  public int crc32c() {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length);
    return (int) crc.getValue();
  }

  /**
   * Lends the bytes to {@code reader} through this thread's {@link ScopedBlockView}: nothing is allocated, and the
   * cache that holds this block keeps it (no reference changes hands).
   */
  public void read(BlockReader reader) {
    ScopedBlockView.readHeap(backing, bytes, reader);
  }

  /** A new read-only view of the bytes; the caller owns its one reference and must release it. */
  public BlockBuf newView() {
    return BlockBuf.ofHeap(backing, bytes);
  }
}
