package dev.blockcache.buffer;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * One block held on the Java heap (by an L1 cache, or by the L2 while it waits for a writer): its bytes, a region of
 * a {@code byte[]} that nobody writes any more, and its category.
 *
 * <p>Readers get {@link BlockBuf} views of the region. Heap memory needs no reference counting: a view keeps the array
 * reachable, so eviction simply drops the block and the garbage collector reclaims the array once the last view is
 * gone. Views have their own reference count (see {@link BlockBuf}), so a hit touches no counter shared between
 * readers. The block keeps no {@link ByteBuf} of its own: views read the array directly.
 *
 * <p>A block gets its array in one of two ways: {@link #copyOf} copies the readable bytes into a new array of exactly
 * that length; {@link #keepOrCopy} keeps the array of a buffer handed over to it when netty's unpooled heap buffer owns
 * that array (releasing such a buffer never hands its array to anyone else) and the readable bytes fill most of it,
 * and copies otherwise.
 *
 * <p>A cache may extend this class with its own per-entry state, so that an entry is one object rather than an entry
 * pointing at a block.
 *
 * <p>Thread-safety: the block's fields are immutable after construction (a subclass documents its own).
 */
public class HeapBlock {
  /**
   * Heap bytes an {@code LruBlockCache} entry costs beyond its block's bytes, with compressed oops: its index slots
   * (2 to 4 slots of 12 bytes: tag, entry and array references; 24 to 48), the entry, which is the block itself (64:
   * the key's file reference and offset kept inline, no key object, and the list and file-chain links), and the
   * array's header (16), 104 to 128 in all. {@code L1EntryOverheadTest} measures it.
   */
  public static final int LRU_ENTRY_OVERHEAD = 136;
  /**
   * Heap bytes a {@code TinyLfuBlockCache} entry costs beyond its block's bytes: the block, which is Caffeine's key
   * (the key's fields inline, the file-chain links and the map value's reference: 64), Caffeine's node with its
   * map node and table share (~105), the array's header (16) and, for a block that does not span its array, the
   * region object kept as the map value (32), rounded up. {@code L1EntryOverheadTest} measures it.
   */
  public static final int TINYLFU_ENTRY_OVERHEAD = 224;

  /** The most a kept array may hold beyond the readable bytes, as a fraction of them (1/8): else it is copied. */
  private static final int MAX_SLACK_SHIFT = 3;

  private final BlockCategory category;
  private final byte[] bytes;
  private final int offset;
  private final int length;

  private HeapBlock(BlockCategory category, byte[] bytes, int offset, int length) {
    this.category = category;
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
  }

  /** A block over the same bytes as {@code block}, for a subclass that adds its own state. */
  protected HeapBlock(HeapBlock block) {
    this(block.category, block.bytes, block.offset, block.length);
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
    return new HeapBlock(category, bytes, 0, length);
  }

  /**
   * {@code block}'s readable bytes as a heap block, for a caller that hands {@code block} over
   * ({@link dev.blockcache.api.BlockCache#handOver}): the array is kept (no copy) when {@code block} is, or derives
   * from, one of netty's own unpooled heap buffers and its readable bytes fill at least 8/9 of the array; otherwise
   * the bytes are copied as {@link #copyOf} does. The reference count is not changed: the caller releases its
   * reference afterwards, which never gives a kept array to anyone else, and nobody may write to that array again.
   */
  public static HeapBlock keepOrCopy(ByteBuf block, BlockCategory category) {
    byte[] kept = keepableArray(block);
    if (kept == null) {
      return copyOf(block, category);
    }
    return new HeapBlock(category, kept, block.arrayOffset() + block.readerIndex(), block.readableBytes());
  }

  /** The array behind {@code block} if {@link #keepOrCopy} may keep it, else null. */
  private static byte[] keepableArray(ByteBuf block) {
    if (!block.hasArray()) {
      return null;
    }
    byte[] array = block.array();
    int readable = block.readableBytes();
    if (array.length - readable > readable >>> MAX_SLACK_SHIFT) {
      return null;
    }
    ByteBuf root = block;
    for (ByteBuf parent = root.unwrap(); parent != null; parent = root.unwrap()) {
      root = parent;
    }
    // Netty's own unpooled heap buffers free an array by dropping it; a pooled one, or a subclass from elsewhere,
    // may hand it to the next allocation once released.
    boolean unpooled = root instanceof UnpooledHeapByteBuf
        && root.getClass().getPackageName().equals("io.netty.buffer");
    return unpooled && root.hasArray() && root.array() == array ? array : null;
  }

  public final BlockCategory category() {
    return category;
  }

  /** The number of block bytes. */
  public final int length() {
    return length;
  }

  /**
   * The heap this block is accounted as in a cache whose entries cost {@code entryOverhead} bytes beyond their
   * blocks' bytes: the array it keeps reachable (the block's bytes, or a few more for a kept array) plus
   * {@code entryOverhead}.
   */
  public final long heapSize(int entryOverhead) {
    return (long) bytes.length + entryOverhead;
  }

  /**
   * The CRC32C of the block bytes, computed over the array in place (a checksum over a read-only view would copy the
   * bytes through a temporary array first).
   */
  public final int crc32c() {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }

  /** The array if this block spans all of it (always so for a copy), else null. */
  public final byte[] wholeArray() {
    return offset == 0 && length == bytes.length ? bytes : null;
  }

  /**
   * Whether {@code array} is this block's whole array. An index that keeps the array reference beside the block's
   * own reference lets a reader load both at once and read the bytes through the array it loaded: the processor then
   * fetches the bytes without waiting for this block's object, and the check, which reads only this object's fields,
   * keeps a stale array from being read in place of this block's.
   */
  private boolean isWholeArray(byte[] array) {
    return array == bytes && offset == 0 && length == array.length;
  }

  /**
   * {@link #newView()}, read through {@code array} when it is this block's whole array (see
   * {@link #isWholeArray}); the caller owns the view's one reference and must release it. Any other {@code array},
   * null included, is ignored.
   */
  public final BlockBuf newView(byte[] array) {
    // One allocation site whichever array is read: the JIT can then keep a view that does not escape off the heap.
    boolean whole = isWholeArray(array);
    return BlockBuf.ofHeap(whole ? array : bytes, whole ? 0 : offset, whole ? array.length : length);
  }

  /**
   * A new read-only view of all of {@code array}, the whole array of a cached block (see {@link #wholeArray()}), for
   * an index that keeps such arrays instead of their blocks; the caller owns the view's one reference and must
   * release it. Nobody may write to {@code array}.
   */
  public static BlockBuf viewOfWhole(byte[] array) {
    return BlockBuf.ofHeap(array, 0, array.length);
  }

  /** Lends all of {@code array}, as {@link #viewOfWhole}, to {@code reader} through this thread's scoped view. */
  public static void readWhole(byte[] array, BlockReader reader) {
    ScopedBlockView.readHeap(array, 0, array.length, reader);
  }

  /** {@link #read(BlockReader)}, through {@code array} when it is this block's whole array; else as it. */
  public final void read(BlockReader reader, byte[] array) {
    if (isWholeArray(array)) {
      ScopedBlockView.readHeap(array, 0, array.length, reader);
    } else {
      read(reader);
    }
  }

  /**
   * Lends the bytes to {@code reader} through this thread's {@link ScopedBlockView}: nothing is allocated, and the
   * cache that holds this block keeps it (no reference changes hands).
   */
  public final void read(BlockReader reader) {
    ScopedBlockView.readHeap(bytes, offset, length, reader);
  }

  /** A new read-only view of the bytes; the caller owns its one reference and must release it. */
  public final BlockBuf newView() {
    return BlockBuf.ofHeap(bytes, offset, length);
  }
}
