package dev.blockcache.minidb;

/**
 * The on-disk layout of a mini block file: the offsets and lengths every reader and writer agree on.
 *
 * <pre>
 * +----------------+----------------+-----+-------------+-------------+---------------+
 * | data block 0   | data block 1   | ... | index block | bloom block | trailer (48B) |
 * +----------------+----------------+-----+-------------+-------------+---------------+
 *
 * data block  = rowsPerBlock x ROW_SIZE payload bytes, then one CRC32C (int) per CHUNK_SIZE payload chunk
 * row         = row id (long, big-endian), then ROW_SIZE - 8 filler bytes derived from the row id
 * index block = per data block: first row id (long), file offset (long), payload length (int)   [20 B each]
 * bloom block = bloom bits (longs), see {@link RowBloom}
 * trailer     = MAGIC (long), indexOffset (long), blockCount (int), bloomOffset (long), bloomLongs (int),
 *               rowCount (long), blockSize (int), padding (int)
 * </pre>
 *
 * <p>Thread-safety: constants and pure functions only.
 */
public final class BlockFileLayout {
  /** Bytes per row: the 1 KB rows of the published block-size experiment. */
  public static final int ROW_SIZE = 1024;
  /** Payload bytes covered by one checksum, as HDFS's default {@code dfs.bytes-per-checksum}. */
  public static final int CHUNK_SIZE = 512;
  /** Bytes of one checksum. */
  public static final int CHECKSUM_SIZE = 4;
  /** Bytes of one index entry. */
  public static final int INDEX_ENTRY_SIZE = 20;
  /** Bytes of the trailer at the end of the file. */
  public static final int TRAILER_SIZE = 48;
  /** First long of the trailer: "MINIDB01" in ASCII. */
  public static final long MAGIC = 0x4d494e4944423031L;

  private BlockFileLayout() {}

  /** The on-disk length of a data block with {@code payload} bytes: the payload plus its chunk checksums. */
  public static int onDiskLength(int payload) {
    return payload + chunkCount(payload) * CHECKSUM_SIZE;
  }

  /** The number of {@link #CHUNK_SIZE} chunks covering {@code payload} bytes. */
  public static int chunkCount(int payload) {
    return (payload + CHUNK_SIZE - 1) / CHUNK_SIZE;
  }

  /** The filler byte at position {@code i} (8 ≤ i < ROW_SIZE) of row {@code rowId}: a cheap, id-dependent pattern. */
  public static byte fillerByte(long rowId, int i) {
    return (byte) (rowId * 31 + i);
  }
}
