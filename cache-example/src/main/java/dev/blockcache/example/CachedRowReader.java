package dev.blockcache.example;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockType;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.minidb.BlockFileLayout;
import dev.blockcache.minidb.BlockFileReader;
import dev.blockcache.minidb.BlockFileTrailer;
import dev.blockcache.minidb.RowBloom;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A storage engine's read path with every block going through a {@link BlockCache}: a row lookup reads the bloom
 * block, then the index block, then one data block of a mini block file ({@link BlockFileLayout}), each from the
 * cache or, on a miss, from the file, offering what it read to the cache. With a cache from
 * {@code BlockCacheFactory}, the bloom and index blocks land in the L1 and the data blocks in the L2.
 *
 * <p>For brevity data blocks are not checked against their chunk checksums here ({@link BlockFileReader} does that).
 *
 * <p>Thread-safety: safe for concurrent lookups once opened (positional reads, a thread-safe cache);
 * {@link #close()} must not race with them. The reader does not close the cache.
 */
public final class CachedRowReader implements AutoCloseable {
  private final FileChannel channel;
  /** The file's key handle: its name checked and hashed once, at open. */
  private final BlockFile handle;
  private final BlockCache cache;
  private final BlockFileTrailer trailer;

  private CachedRowReader(FileChannel channel, String file, BlockCache cache, BlockFileTrailer trailer) {
    this.channel = channel;
    BlockFile handle = BlockKey.file(file);                      // once per open file: name checked and hashed
    this.handle = handle;
    this.cache = cache;
    this.trailer = trailer;
  }

  /** Opens the mini block file at {@code path}, reading only its trailer. */
  public static CachedRowReader open(Path path, BlockCache cache) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      return new CachedRowReader(channel, path.getFileName().toString(), cache, BlockFileTrailer.read(channel, path));
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  public BlockFileTrailer trailer() {
    return trailer;
  }

  /**
   * Copies row {@code rowId} into {@code dest[0, ROW_SIZE)}.
   *
   * @return false if the file has no such row
   */
  public boolean readRow(long rowId, byte[] dest) throws IOException {
    ByteBuf bloom = block(trailer.bloomOffset(), trailer.bloomLength(), BlockType.GENERAL_BLOOM_META);
    try {
      if (!RowBloom.mightContain(bloom, rowId)) {
        return false;
      }
    } finally {
      bloom.release();
    }
    long dataOffset;
    int dataLength;
    ByteBuf index = block(trailer.indexOffset(), trailer.indexLength(), BlockType.ROOT_INDEX);
    try {
      int entry = floorEntry(index, rowId);
      if (entry < 0) {
        return false;
      }
      dataOffset = index.getLong(entry + Long.BYTES);
      dataLength = index.getInt(entry + 2 * Long.BYTES);
    } finally {
      index.release();
    }
    ByteBuf data = block(dataOffset, dataLength, BlockType.DATA);
    try {
      return BlockFileReader.findRow(data, rowId, dest);
    } finally {
      data.release();
    }
  }

  /**
   * The block of {@code length} bytes at {@code offset}: from the cache, or read from the file and offered to the
   * cache. The caller owns one reference of the returned block and releases it.
   */
  ByteBuf block(long offset, int length, BlockType type) throws IOException {
    ByteBuf cached = cache.getBlock(handle, offset, ReadOptions.of(type)); // no key built
    if (cached != null) {
      return cached;                                           // a read-only view; the caller releases it
    }
    ByteBuf read = readFromFile(offset, length);               // a miss: your buffer, your reference
    BlockKey key = handle.block(offset);                       // equal to BlockKey.of(file, offset)
    cache.handOver(key, read.retain(), CacheOptions.of(type)); // one reference is the cache's: no copy in the L1
    return read;                                               // yours to release; nobody writes to it again
  }

  /** The index entry (its reader-relative position) of the block whose first row is the greatest ≤ rowId, or -1. */
  private static int floorEntry(ByteBuf index, long rowId) {
    int lo = 0;
    int hi = index.readableBytes() / BlockFileLayout.INDEX_ENTRY_SIZE - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int at = index.readerIndex() + mid * BlockFileLayout.INDEX_ENTRY_SIZE;
      if (index.getLong(at) <= rowId) {
        found = at;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  private ByteBuf readFromFile(long offset, int length) throws IOException {
    return Unpooled.wrappedBuffer(BlockFileReader.readFully(channel, offset, length));
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
