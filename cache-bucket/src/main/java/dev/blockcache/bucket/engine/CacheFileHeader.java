package dev.blockcache.bucket.engine;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Descriptor of the header at the start of every cache file a file engine creates: the marker that says the file is
 * ours. A file engine reuses an existing file only if it starts with this header, so a file the cache did not create
 * is never overwritten (docs/operations.md, "File safety").
 *
 * <pre>
 *  0                8          12                                           4096
 *  +----------------+----------+--------------------------------------------+------------------------
 *  | magic (8 bytes)| version  | zeros                                      | slot bytes (engine
 *  | "BLKCACHE"     | int, BE  |                                            | offset 0 is here)
 *  +----------------+----------+--------------------------------------------+------------------------
 * </pre>
 * The header takes {@link #LENGTH} bytes, one O_DIRECT block and one page, so the slot bytes after it stay aligned
 * for O_DIRECT and for memory maps. Engine offsets count from the end of the header.
 *
 * <p>Thread-safety: stateless.
 */
public final class CacheFileHeader {
  /** Bytes before the first slot byte: one 4096-byte O_DIRECT block and page. */
  public static final int LENGTH = DirectIo.ALIGNMENT;
  static final int MAGIC_OFFSET = 0;
  static final int VERSION_OFFSET = 8;
  /** What the marker bytes read as text. */
  public static final String MAGIC_TEXT = "BLKCACHE";
  private static final byte[] MAGIC = MAGIC_TEXT.getBytes(StandardCharsets.US_ASCII);
  /** Layout of the bytes after the header; a file of another version is refused, never reinterpreted. */
  static final int VERSION = 1;

  private CacheFileHeader() {}

  /** Writes a whole header into {@code dst} (of at least {@link #LENGTH} bytes) from its position 0. */
  static ByteBuffer fill(ByteBuffer dst) {
    ByteBuffer b = dst.duplicate().order(ByteOrder.BIG_ENDIAN).clear().limit(LENGTH);
    for (int i = 0; i < LENGTH; i++) {
      b.put(i, (byte) 0);
    }
    b.put(MAGIC_OFFSET, MAGIC);
    b.putInt(VERSION_OFFSET, VERSION);
    return b;
  }

  /** Whether {@code header}'s first {@link #LENGTH} bytes (from index 0) carry our marker, of any version. */
  static boolean hasMarker(ByteBuffer header) {
    if (header.limit() < LENGTH) {
      return false;
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (header.get(MAGIC_OFFSET + i) != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  /** The layout version of a header that {@link #hasMarker has the marker}. */
  static int version(ByteBuffer header) {
    return header.duplicate().order(ByteOrder.BIG_ENDIAN).getInt(VERSION_OFFSET);
  }
}
