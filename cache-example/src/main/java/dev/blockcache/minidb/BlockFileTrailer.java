package dev.blockcache.minidb;

import static dev.blockcache.minidb.BlockFileLayout.TRAILER_SIZE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The {@value BlockFileLayout#TRAILER_SIZE}-byte trailer at the end of a mini block file (layout in
 * {@link BlockFileLayout}): where the index and bloom blocks are and how large the file's blocks and rows are.
 *
 * <p>Thread-safety: immutable.
 *
 * @param indexOffset file offset of the index block
 * @param blockCount data blocks, so index entries
 * @param bloomOffset file offset of the bloom block
 * @param bloomLongs longs in the bloom block
 * @param rowCount rows in the file
 * @param blockSize the data block payload size the file was written with
 */
public record BlockFileTrailer(long indexOffset, int blockCount, long bloomOffset, int bloomLongs, long rowCount,
    int blockSize) {

  /** Bytes of the index block. */
  public int indexLength() {
    return blockCount * BlockFileLayout.INDEX_ENTRY_SIZE;
  }

  /** Bytes of the bloom block. */
  public int bloomLength() {
    return bloomLongs * Long.BYTES;
  }

  /** The trailer's bytes, ready to write at the end of the file. */
  ByteBuffer encode() {
    return ByteBuffer.allocate(TRAILER_SIZE).putLong(BlockFileLayout.MAGIC).putLong(indexOffset).putInt(blockCount)
        .putLong(bloomOffset).putInt(bloomLongs).putLong(rowCount).putInt(blockSize).putInt(0).flip();
  }

  /**
   * Reads the trailer of the file open on {@code channel}.
   *
   * @throws IOException naming {@code path} if the file is too short or not a mini block file
   */
  public static BlockFileTrailer read(FileChannel channel, Path path) throws IOException {
    long size = channel.size();
    if (size < TRAILER_SIZE) {
      throw new IOException(path + ": " + size + " bytes, shorter than the " + TRAILER_SIZE + "-byte trailer");
    }
    ByteBuffer t = BlockFileReader.readFully(channel, size - TRAILER_SIZE, TRAILER_SIZE);
    if (t.getLong() != BlockFileLayout.MAGIC) {
      throw new IOException(path + ": not a mini block file (bad magic)");
    }
    return new BlockFileTrailer(t.getLong(), t.getInt(), t.getLong(), t.getInt(), t.getLong(), t.getInt());
  }
}
