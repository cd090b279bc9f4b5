package dev.blockcache.minidb;

import static dev.blockcache.minidb.BlockFileLayout.CHECKSUM_SIZE;
import static dev.blockcache.minidb.BlockFileLayout.CHUNK_SIZE;
import static dev.blockcache.minidb.BlockFileLayout.INDEX_ENTRY_SIZE;
import static dev.blockcache.minidb.BlockFileLayout.ROW_SIZE;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockType;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.ReadOptions;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Reads rows of a mini block file: bloom (on heap) → index (on heap, the "L1" of the published talk) → data block
 * (from the block cache if one is given, else a positional {@link FileChannel} read) → row.
 *
 * <p>With {@link IndexMode#LEAVES_IN_CACHE} the index is two-level, as HBase's: the first row of every data block
 * stays on heap (the root level, which finds the block), and the block's offset and length come from a leaf index
 * block of {@link #LEAF_ENTRIES} entries, read through the block cache as {@link BlockType#LEAF_INDEX} (so a
 * combined cache keeps it in its L1) and from the file's index section on a miss.
 *
 * <p>Data blocks are cached without their checksums, under {@code BlockKey.of(fileName, blockOffset)}. File reads
 * are verified chunk by chunk ({@link BlockFileLayout#CHUNK_SIZE}) when {@link ReadMode#VERIFY_CHECKSUMS} is set; a
 * block that fails is neither cached nor used.
 *
 * <p>Thread-safety: safe for concurrent readers once opened (the index and bloom are immutable, positional reads do
 * not move the channel, the cache is thread-safe). {@link #close()} must not race with reads.
 */
public final class BlockFileReader implements AutoCloseable {
  /** Whether file reads verify the per-chunk checksums. */
  public enum ReadMode { VERIFY_CHECKSUMS, SKIP_CHECKSUMS }

  /** Where the data blocks' offsets and lengths are looked up. */
  public enum IndexMode {
    /** All of the index on heap; the block cache sees data blocks only. */
    ON_HEAP,
    /** Leaf index blocks through the block cache (needs a cache); see the class notes. */
    LEAVES_IN_CACHE
  }

  /** Index entries per leaf index block in {@link IndexMode#LEAVES_IN_CACHE}: 4,000 bytes, about a 4 KiB block. */
  public static final int LEAF_ENTRIES = 200;
  private static final ReadOptions LEAF_READ = ReadOptions.of(BlockType.LEAF_INDEX);
  private static final CacheOptions LEAF_CACHE = CacheOptions.of(BlockType.LEAF_INDEX);

  private static final ReadOptions DATA_READ = ReadOptions.of(BlockType.DATA);
  private static final CacheOptions DATA_CACHE = CacheOptions.of(BlockType.DATA);

  private final FileChannel channel;
  private final String fileName;
  private final BlockCache cache;
  private final ReadMode mode;
  private final long[] firstRows;
  private final long[] offsets;
  private final int[] lengths;
  private final RowBloom bloom;
  private final long rowCount;
  private final int blockSize;
  private final long indexOffset;
  private final IndexMode indexMode;

  private BlockFileReader(FileChannel channel, String fileName, BlockCache cache, ReadMode mode, long[] firstRows,
      long[] offsets, int[] lengths, RowBloom bloom, long rowCount, int blockSize, long indexOffset,
      IndexMode indexMode) {
    this.channel = channel;
    this.fileName = fileName;
    this.cache = cache;
    this.mode = mode;
    this.firstRows = firstRows;
    this.offsets = offsets;
    this.lengths = lengths;
    this.bloom = bloom;
    this.rowCount = rowCount;
    this.blockSize = blockSize;
    this.indexOffset = indexOffset;
    this.indexMode = indexMode;
  }

  /**
   * Opens {@code path} and loads its index and bloom blocks.
   *
   * @param cache the data block cache, or {@code null} to read every block from the file (OS page cache only);
   *     the reader does not close it
   */
  public static BlockFileReader open(Path path, BlockCache cache, ReadMode mode) throws IOException {
    return open(path, cache, mode, IndexMode.ON_HEAP);
  }

  /**
   * Opens {@code path} as {@link #open(Path, BlockCache, ReadMode)} does, with the index looked up as
   * {@code indexMode} says.
   *
   * @throws IllegalArgumentException for {@link IndexMode#LEAVES_IN_CACHE} without a cache
   */
  public static BlockFileReader open(Path path, BlockCache cache, ReadMode mode, IndexMode indexMode)
      throws IOException {
    if (indexMode == IndexMode.LEAVES_IN_CACHE && cache == null) {
      throw new IllegalArgumentException("IndexMode.LEAVES_IN_CACHE needs a block cache");
    }
    FileChannel ch = FileChannel.open(path, StandardOpenOption.READ);
    try {
      BlockFileTrailer t = BlockFileTrailer.read(ch, path);
      int blocks = t.blockCount();
      ByteBuffer idx = readFully(ch, t.indexOffset(), t.indexLength());
      long[] firstRows = new long[blocks];
      long[] offsets = new long[blocks];
      int[] lengths = new int[blocks];
      for (int b = 0; b < blocks; b++) {
        firstRows[b] = idx.getLong();
        offsets[b] = idx.getLong();
        lengths[b] = idx.getInt();
      }
      long[] bits = new long[t.bloomLongs()];
      readFully(ch, t.bloomOffset(), t.bloomLength()).asLongBuffer().get(bits);
      return new BlockFileReader(ch, path.getFileName().toString(), cache, mode, firstRows, offsets, lengths,
          RowBloom.wrap(bits), t.rowCount(), t.blockSize(), t.indexOffset(), indexMode);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /**
   * Copies row {@code rowId} into {@code dest[0, ROW_SIZE)}.
   *
   * @return false if the file has no such row (answered by the bloom block when it can)
   * @throws CorruptBlockException if the block had to be read from the file and failed verification
   */
  public boolean readRow(long rowId, byte[] dest) throws IOException {
    if (!bloom.mightContain(rowId)) {
      return false;
    }
    int b = blockOf(rowId);
    if (b < 0) {
      return false;
    }
    long offset = offsets[b];
    int length = lengths[b];
    if (indexMode == IndexMode.LEAVES_IN_CACHE) {
      ByteBuf leaf = leafIndexBlock(b / LEAF_ENTRIES);
      try {
        int at = leaf.readerIndex() + (b % LEAF_ENTRIES) * INDEX_ENTRY_SIZE;
        offset = leaf.getLong(at + Long.BYTES);
        length = leaf.getInt(at + 2 * Long.BYTES);
      } finally {
        leaf.release();
      }
    }
    ByteBuf block = dataBlock(offset, length);
    try {
      return findRow(block, rowId, dest);
    } finally {
      block.release();
    }
  }

  /**
   * Copies row {@code rowId} of a data block's payload (its readable bytes) into {@code dest[0, ROW_SIZE)}, by
   * binary search over the block's row ids. The block's reference count and indexes do not change.
   *
   * @return false if the block has no such row
   */
  public static boolean findRow(ByteBuf block, long rowId, byte[] dest) {
    int lo = 0;
    int hi = block.readableBytes() / ROW_SIZE - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long id = block.getLong(block.readerIndex() + mid * ROW_SIZE);
      if (id < rowId) {
        lo = mid + 1;
      } else if (id > rowId) {
        hi = mid - 1;
      } else {
        block.getBytes(block.readerIndex() + mid * ROW_SIZE, dest, 0, ROW_SIZE);
        return true;
      }
    }
    return false;
  }

  /** The number of rows in the file. */
  public long rowCount() {
    return rowCount;
  }

  /** The data block payload size the file was written with. */
  public int blockSize() {
    return blockSize;
  }

  /** The number of data blocks. */
  public int blockCount() {
    return firstRows.length;
  }

  /** False if the bloom block proves {@code rowId} absent. */
  public boolean mightContain(long rowId) {
    return bloom.mightContain(rowId);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  /** The index lookup: the block whose first row is the greatest ≤ {@code rowId}, or -1. */
  int blockOf(long rowId) {
    int i = Arrays.binarySearch(firstRows, rowId);
    return i >= 0 ? i : -i - 2;
  }

  /** Leaf index block {@code leaf} (entries as in the file); the caller owns one reference and releases it. */
  private ByteBuf leafIndexBlock(int leaf) throws IOException {
    long at = indexOffset + (long) leaf * LEAF_ENTRIES * INDEX_ENTRY_SIZE;
    BlockKey key = BlockKey.of(fileName, at);
    ByteBuf cached = cache.getBlock(key, LEAF_READ);
    if (cached != null) {
      return cached;
    }
    int entries = Math.min(LEAF_ENTRIES, firstRows.length - leaf * LEAF_ENTRIES);
    ByteBuf block = Unpooled.wrappedBuffer(readFully(channel, at, entries * INDEX_ENTRY_SIZE));
    cache.cacheBlock(key, block, LEAF_CACHE); // copies; we keep our reference
    return block;
  }

  /** The payload of the data block at {@code offset}; the caller owns one reference and releases it. */
  private ByteBuf dataBlock(long offset, int payload) throws IOException {
    if (cache != null) {
      ByteBuf cached = cache.getBlock(BlockKey.of(fileName, offset), DATA_READ);
      if (cached != null) {
        return cached;
      }
    }
    ByteBuf block = Unpooled.wrappedBuffer(readBlockFromFile(offset, payload));
    if (cache != null) {
      cache.cacheBlock(BlockKey.of(fileName, offset), block, DATA_CACHE); // copies; we keep our reference
    }
    return block;
  }

  /** Reads the block at {@code offset} from the file, verifies it if asked, and returns its payload. */
  private ByteBuffer readBlockFromFile(long offset, int payload) throws IOException {
    ByteBuffer buf = readFully(channel, offset, BlockFileLayout.onDiskLength(payload));
    if (mode == ReadMode.VERIFY_CHECKSUMS) {
      CRC32C crc = new CRC32C();
      for (int c = 0, chunk = 0; c < payload; c += CHUNK_SIZE, chunk++) {
        crc.reset();
        crc.update(buf.array(), buf.arrayOffset() + c, Math.min(CHUNK_SIZE, payload - c));
        int stored = buf.getInt(payload + chunk * CHECKSUM_SIZE);
        if (stored != (int) crc.getValue()) {
          throw new CorruptBlockException(fileName, offset, chunk, stored, (int) crc.getValue());
        }
      }
    }
    return buf.limit(payload);
  }

  /**
   * {@code length} bytes of {@code ch} from {@code position} in a new heap buffer, flipped for reading.
   *
   * @throws EOFException if the file ends first
   */
  public static ByteBuffer readFully(FileChannel ch, long position, int length) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(length);
    long pos = position;
    while (buf.hasRemaining()) {
      int n = ch.read(buf, pos);
      if (n < 0) {
        throw new EOFException("read of " + length + " bytes at " + position + " hit end of file");
      }
      pos += n;
    }
    return buf.flip();
  }
}
