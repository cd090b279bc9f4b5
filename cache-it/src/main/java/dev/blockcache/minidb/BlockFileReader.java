package dev.blockcache.minidb;

import static dev.blockcache.minidb.BlockFileLayout.CHECKSUM_SIZE;
import static dev.blockcache.minidb.BlockFileLayout.CHUNK_SIZE;
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

  private BlockFileReader(FileChannel channel, String fileName, BlockCache cache, ReadMode mode, long[] firstRows,
      long[] offsets, int[] lengths, RowBloom bloom, long rowCount, int blockSize) {
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
  }

  /**
   * Opens {@code path} and loads its index and bloom blocks.
   *
   * @param cache the data block cache, or {@code null} to read every block from the file (OS page cache only);
   *     the reader does not close it
   */
  public static BlockFileReader open(Path path, BlockCache cache, ReadMode mode) throws IOException {
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
          RowBloom.wrap(bits), t.rowCount(), t.blockSize());
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
    ByteBuf block = dataBlock(b);
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

  /** Block {@code b}'s payload; the caller owns one reference and releases it. */
  private ByteBuf dataBlock(int b) throws IOException {
    if (cache != null) {
      ByteBuf cached = cache.getBlock(BlockKey.of(fileName, offsets[b]), DATA_READ);
      if (cached != null) {
        return cached;
      }
    }
    ByteBuf block = Unpooled.wrappedBuffer(readBlockFromFile(b));
    if (cache != null) {
      cache.cacheBlock(BlockKey.of(fileName, offsets[b]), block, DATA_CACHE); // copies; we keep our reference
    }
    return block;
  }

  /** Reads block {@code b} from the file, verifies it if asked, and returns its payload (checksums cut off). */
  private ByteBuffer readBlockFromFile(int b) throws IOException {
    int payload = lengths[b];
    ByteBuffer buf = readFully(channel, offsets[b], BlockFileLayout.onDiskLength(payload));
    if (mode == ReadMode.VERIFY_CHECKSUMS) {
      CRC32C crc = new CRC32C();
      for (int c = 0, chunk = 0; c < payload; c += CHUNK_SIZE, chunk++) {
        crc.reset();
        crc.update(buf.array(), c, Math.min(CHUNK_SIZE, payload - c));
        int stored = buf.getInt(payload + chunk * CHECKSUM_SIZE);
        if (stored != (int) crc.getValue()) {
          throw new CorruptBlockException(fileName, offsets[b], chunk, stored, (int) crc.getValue());
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
