package dev.blockcache.minidb;

import static dev.blockcache.minidb.BlockFileLayout.CHUNK_SIZE;
import static dev.blockcache.minidb.BlockFileLayout.INDEX_ENTRY_SIZE;
import static dev.blockcache.minidb.BlockFileLayout.ROW_SIZE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Writes a mini block file (layout in {@link BlockFileLayout}) of {@code rowCount} rows with ids
 * {@code 0, stride, 2·stride, ...}: a stride above 1 leaves gaps that must be answered "absent".
 *
 * <p>Thread-safety: a static entry point; each call uses its own buffers and channel.
 */
public final class BlockFileWriter {
  private BlockFileWriter() {}

  /**
   * Writes the file at {@code path}, replacing any file there.
   *
   * @param blockSize data block payload size in bytes, a positive multiple of {@link BlockFileLayout#ROW_SIZE}
   * @param stride the distance between consecutive row ids, at least 1
   */
  public static void write(Path path, long rowCount, int blockSize, int stride) throws IOException {
    if (blockSize <= 0 || blockSize % ROW_SIZE != 0) {
      throw new IllegalArgumentException("blockSize=" + blockSize + ": expected a positive multiple of " + ROW_SIZE);
    }
    if (rowCount <= 0 || stride < 1) {
      throw new IllegalArgumentException("rowCount=" + rowCount + ", stride=" + stride + ": expected both >= 1");
    }
    int rowsPerBlock = blockSize / ROW_SIZE;
    long blocks = (rowCount + rowsPerBlock - 1) / rowsPerBlock;
    if (blocks * INDEX_ENTRY_SIZE > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("rowCount=" + rowCount + " needs an index block over 2 GiB");
    }
    RowBloom bloom = RowBloom.forRows(rowCount);
    ByteBuffer index = ByteBuffer.allocate((int) blocks * INDEX_ENTRY_SIZE);
    ByteBuffer block = ByteBuffer.allocate(BlockFileLayout.onDiskLength(blockSize));
    CRC32C crc = new CRC32C();
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      long offset = 0;
      long row = 0;
      while (row < rowCount) {
        int rows = (int) Math.min(rowsPerBlock, rowCount - row);
        int payload = rows * ROW_SIZE;
        block.clear();
        index.putLong(row * stride).putLong(offset).putInt(payload);
        for (int r = 0; r < rows; r++, row++) {
          long id = row * stride;
          bloom.add(id);
          block.putLong(id);
          for (int i = 8; i < ROW_SIZE; i++) {
            block.put(BlockFileLayout.fillerByte(id, i));
          }
        }
        for (int c = 0; c < payload; c += CHUNK_SIZE) {
          crc.reset();
          crc.update(block.array(), c, Math.min(CHUNK_SIZE, payload - c));
          block.putInt((int) crc.getValue());
        }
        block.flip();
        offset += writeFully(ch, block, offset);
      }
      long indexOffset = offset;
      index.flip();
      offset += writeFully(ch, index, offset);
      long bloomOffset = offset;
      long[] bits = bloom.bits();
      ByteBuffer bloomBuf = ByteBuffer.allocate(bits.length * Long.BYTES);
      bloomBuf.asLongBuffer().put(bits);
      offset += writeFully(ch, bloomBuf, offset);
      writeFully(ch, new BlockFileTrailer(indexOffset, (int) blocks, bloomOffset, bits.length, rowCount, blockSize)
          .encode(), offset);
    }
  }

  private static int writeFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
    int n = buf.remaining();
    long pos = position;
    while (buf.hasRemaining()) {
      pos += ch.write(buf, pos);
    }
    return n;
  }
}
