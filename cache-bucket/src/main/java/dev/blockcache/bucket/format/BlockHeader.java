package dev.blockcache.bucket.format;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The header written in front of every block in an L2 slot: it names the block's full key, so that a read can prove
 * the slot holds the block the index promised (the index keys on a 64-bit hash only), and carries the block's
 * CRC32C, so that a corrupted block is never served.
 *
 * <pre>
 *  0        4        8        12    14   15   16                24                  24+n
 *  +--------+--------+--------+-----+----+----+-----------------+-------------------+------------------
 *  | magic  | length | crc32c | n   |cat |ver | key offset (i64)| file name (n B,   | block bytes
 *  | u32    | u32    | u32    | u16 | u8 | u8 |                 |   UTF-8)          |   (length B)
 *  +--------+--------+--------+-----+----+----+-----------------+-------------------+------------------
 * </pre>
 * Integers are big-endian. {@code crc32c} covers the block bytes; on memory engines it is 0, because nothing there
 * verifies it (their reads are zero-copy views of process memory, which no device corrupts, and they never persist). {@code cat} is the {@link BlockCategory} ordinal.
 * The slot holds {@code 24 + n + length} bytes.
 *
 * <p>Thread-safety: stateless.
 */
public final class BlockHeader {
  /** Marks the start of a block header; a slot that does not start with it holds no block. */
  public static final int MAGIC = 0xB10CCAC4;
  /** Format version; a reader refuses other versions. */
  public static final int VERSION = 1;
  /** Bytes before the file name. */
  public static final int FIXED_LENGTH = 24;
  /** Longest file name in bytes (the u16 length field). */
  public static final int MAX_NAME_LENGTH = 0xFFFF;

  public static final int MAGIC_OFFSET = 0;
  public static final int LENGTH_OFFSET = 4;
  public static final int CRC_OFFSET = 8;
  public static final int NAME_LENGTH_OFFSET = 12;
  public static final int CATEGORY_OFFSET = 14;
  public static final int VERSION_OFFSET = 15;
  public static final int KEY_OFFSET_OFFSET = 16;
  public static final int NAME_OFFSET = FIXED_LENGTH;

  private BlockHeader() {}

  /**
   * The header bytes for {@code key}: {@link #FIXED_LENGTH} plus its file name in UTF-8. Allocates nothing for ASCII
   * names.
   */
  public static int headerLength(BlockKey key) {
    String file = key.file();
    int ascii = asciiLength(file);
    return headerLength(ascii == file.length() ? ascii : nameBytes(key).length);
  }

  /**
   * Whether {@code key}'s file name fits the header's u16 length field ({@link #MAX_NAME_LENGTH} bytes of UTF-8);
   * {@link #headerLength(BlockKey)} and the writers refuse a key for which this is false.
   */
  public static boolean nameFits(BlockKey key) {
    String file = key.file();
    // A UTF-8 character takes at most 3 bytes per UTF-16 char, so short names need no encoding.
    if ((long) file.length() * 3 <= MAX_NAME_LENGTH) {
      return true;
    }
    return file.length() <= MAX_NAME_LENGTH
        && (asciiLength(file) == file.length() || file.getBytes(StandardCharsets.UTF_8).length <= MAX_NAME_LENGTH);
  }

  /** How many leading characters of {@code s} are ASCII (its UTF-8 bytes are then those characters). */
  private static int asciiLength(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return i;
      }
    }
    return n;
  }

  /** The header bytes for a key whose file name is {@code fileNameBytes} long in UTF-8. */
  public static int headerLength(int fileNameBytes) {
    if (fileNameBytes < 0 || fileNameBytes > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException("file name of " + fileNameBytes + " bytes is not in [0, "
          + MAX_NAME_LENGTH + "]");
    }
    return FIXED_LENGTH + fileNameBytes;
  }

  private static byte[] nameBytes(BlockKey key) {
    byte[] name = key.file().getBytes(StandardCharsets.UTF_8);
    if (name.length > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException("file name of " + name.length + " bytes exceeds " + MAX_NAME_LENGTH);
    }
    return name;
  }

  /** CRC32C of {@code length} bytes of {@code buf} from {@code index}. */
  public static int crc32c(ByteBuf buf, int index, int length) {
    return crc32c(buf.nioBuffer(index, length));
  }

  private static int crc32c(ByteBuffer bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    return (int) crc.getValue();
  }

  /**
   * Writes the header for {@code key} and the readable bytes of {@code block} to {@code out}'s writer index. Neither
   * buffer's reference count changes; {@code block}'s reader index does not move.
   */
  public static void write(ByteBuf out, BlockKey key, BlockCategory category, ByteBuf block) {
    write(out, key, category, block, crc32c(block, block.readerIndex(), block.readableBytes()));
  }

  /** The same, with the CRC32C of {@code block}'s readable bytes computed by the caller. */
  public static void write(ByteBuf out, BlockKey key, BlockCategory category, ByteBuf block, int crc32c) {
    int length = block.readableBytes();
    writeHeader(out, key, category, length, crc32c);
    out.writeBytes(block, block.readerIndex(), length);
  }

  /**
   * Writes only the header (for a block of {@code length} bytes with checksum {@code crc32c}) to {@code out}'s writer
   * index: {@link #headerLength} bytes. The block bytes must follow it in the slot.
   */
  public static void writeHeader(ByteBuf out, BlockKey key, BlockCategory category, int length, int crc32c) {
    byte[] name = nameBytes(key);
    out.writeInt(MAGIC)
        .writeInt(length)
        .writeInt(crc32c)
        .writeShort(name.length)
        .writeByte(category.ordinal())
        .writeByte(VERSION)
        .writeLong(key.offset())
        .writeBytes(name);
  }

  /**
   * Sets the header (for a block of {@code length} bytes with checksum {@code crc32c}) at {@code index} of
   * {@code slot}, the same bytes {@link #writeHeader} appends; {@code slot}'s indexes do not move. The caller passes
   * the file name's UTF-8 length ({@link #headerLength} minus {@link #FIXED_LENGTH}): when it equals the name's
   * character count the name is ASCII (any other character takes more than one byte) and is set without a copy.
   *
   * @return the header length
   * @throws IllegalArgumentException if {@code nameLength} is not the UTF-8 length of {@code key}'s file name
   */
  public static int putHeader(ByteBuf slot, int index, BlockKey key, int nameLength, BlockCategory category,
      int length, int crc32c) {
    String file = key.file();
    int headerLength = headerLength(nameLength);
    slot.setInt(index + MAGIC_OFFSET, MAGIC);
    slot.setInt(index + LENGTH_OFFSET, length);
    slot.setInt(index + CRC_OFFSET, crc32c);
    slot.setShort(index + NAME_LENGTH_OFFSET, nameLength);
    slot.setByte(index + CATEGORY_OFFSET, category.ordinal());
    slot.setByte(index + VERSION_OFFSET, VERSION);
    slot.setLong(index + KEY_OFFSET_OFFSET, key.offset());
    if (nameLength != file.length() || !setAsciiName(slot, index + NAME_OFFSET, file)) {
      byte[] name = nameBytes(key);
      if (name.length != nameLength) {
        throw new IllegalArgumentException("file name " + file + " is " + name.length + " bytes in UTF-8, not "
            + nameLength);
      }
      slot.setBytes(index + NAME_OFFSET, name);
    }
    return headerLength;
  }

  /**
   * Sets {@code file}'s characters as bytes at {@code at}, eight per {@code setLong}; returns false at the first
   * character that is not ASCII (what was set is then not the name's UTF-8 and the caller overwrites it). A
   * {@link BlockKey} name whose UTF-8 length equals its character count is ASCII (keys refuse unpaired surrogates),
   * so the check is a guard.
   */
  private static boolean setAsciiName(ByteBuf slot, int at, String file) {
    int chars = file.length();
    int i = 0;
    for (; i + Long.BYTES <= chars; i += Long.BYTES) {
      long packed = packAscii(file, i);
      if (packed < 0) {
        return false;
      }
      slot.setLong(at + i, packed);
    }
    for (; i < chars; i++) {
      char c = file.charAt(i);
      if (c >= 0x80) {
        return false;
      }
      slot.setByte(at + i, c);
    }
    return true;
  }

  /**
   * Characters {@code i .. i + 7} of {@code s} packed big-endian into a long, one byte each, or -1 if one of them is
   * not ASCII (a packed ASCII run never has its top bit set).
   */
  private static long packAscii(String s, int i) {
    long packed = 0;
    for (int b = 0; b < Long.BYTES; b++) {
      char c = s.charAt(i + b);
      if (c >= 0x80) {
        return -1;
      }
      packed = packed << 8 | c;
    }
    return packed;
  }

  /**
   * Checks that the header at {@code index} of {@code slot} is a version-{@value #VERSION} header for exactly
   * {@code key} and a block of {@code length} bytes. Allocates nothing for ASCII file names.
   *
   * @return the header length (the block starts at {@code index + headerLength}), or -1 if the slot holds another
   *     block or no valid header
   */
  public static int verifyKey(ByteBuf slot, int index, BlockKey key, int length) {
    return verifyKey(slot, index, key.file(), key.offset(), length);
  }

  /**
   * As {@link #verifyKey(ByteBuf, int, BlockKey, int)} for the key of {@code file} and {@code offset}: for a hit path
   * whose caller keeps its {@link BlockKey} out of methods too large to inline, so that a key built per lookup need
   * not be allocated.
   */
  public static int verifyKey(ByteBuf slot, int index, String file, long offset, int length) {
    if (slot.getInt(index + MAGIC_OFFSET) != MAGIC
        || slot.getUnsignedByte(index + VERSION_OFFSET) != VERSION
        || slot.getInt(index + LENGTH_OFFSET) != length
        || slot.getLong(index + KEY_OFFSET_OFFSET) != offset) {
      return -1;
    }
    int nameLength = slot.getUnsignedShort(index + NAME_LENGTH_OFFSET);
    if (!nameMatches(slot, index + NAME_OFFSET, nameLength, file)) {
      return -1;
    }
    return FIXED_LENGTH + nameLength;
  }

  private static boolean nameMatches(ByteBuf slot, int index, int nameLength, String file) {
    int chars = file.length();
    if (chars == nameLength) {
      int ascii = asciiPrefixMatch(slot, index, file);
      if (ascii == chars) {
        return true;
      }
      if (ascii >= 0) {
        return utf8Matches(slot, index, nameLength, file);
      }
      return false;
    }
    return utf8Matches(slot, index, nameLength, file);
  }

  /**
   * Compares {@code file}'s leading ASCII characters with the bytes at {@code index}, eight at a time (one
   * {@code getLong} against eight characters packed big-endian): a byte-by-byte loop pays netty's bounds and
   * accessibility checks on every byte of a name compared on every L2 hit.
   *
   * @return how many leading characters are ASCII and match (the whole name when it is ASCII and equal), or -1 on a
   *     mismatch within them
   */
  private static int asciiPrefixMatch(ByteBuf slot, int index, String file) {
    int chars = file.length();
    int i = 0;
    for (; i + Long.BYTES <= chars; i += Long.BYTES) {
      long packed = packAscii(file, i);
      if (packed < 0) {
        return bytewisePrefix(slot, index, file, i);
      }
      if (slot.getLong(index + i) != packed) {
        return -1;
      }
    }
    return bytewisePrefix(slot, index, file, i);
  }

  /** Continues {@link #asciiPrefixMatch} one byte at a time from character {@code from}. */
  private static int bytewisePrefix(ByteBuf slot, int index, String file, int from) {
    int chars = file.length();
    for (int i = from; i < chars; i++) {
      char c = file.charAt(i);
      if (c >= 0x80) {
        return i;
      }
      if (slot.getByte(index + i) != (byte) c) {
        return -1;
      }
    }
    return chars;
  }

  private static boolean utf8Matches(ByteBuf slot, int index, int nameLength, String file) {
    byte[] expected = file.getBytes(StandardCharsets.UTF_8);
    if (expected.length != nameLength) {
      return false;
    }
    for (int i = 0; i < nameLength; i++) {
      if (slot.getByte(index + i) != expected[i]) {
        return false;
      }
    }
    return true;
  }

  /** Whether the block after a verified header at {@code index} matches the header's CRC32C. */
  public static boolean verifyChecksum(ByteBuf slot, int index, int headerLength) {
    int length = slot.getInt(index + LENGTH_OFFSET);
    return crc32c(slot, index + headerLength, length) == slot.getInt(index + CRC_OFFSET);
  }

  /**
   * {@link #verifyChecksum} for a buffer that only the calling thread uses (a read's own buffer): it reads through
   * the buffer's internal NIO view, which allocates nothing once the buffer has made one.
   */
  public static boolean verifyChecksumOwned(ByteBuf slot, int index, int headerLength) {
    if (slot.nioBufferCount() != 1) {
      return verifyChecksum(slot, index, headerLength);
    }
    int length = slot.getInt(index + LENGTH_OFFSET);
    return crc32c(slot.internalNioBuffer(index + headerLength, length)) == slot.getInt(index + CRC_OFFSET);
  }

  /** The category stored in the header at {@code index}. */
  public static BlockCategory category(ByteBuf slot, int index) {
    int ordinal = slot.getUnsignedByte(index + CATEGORY_OFFSET);
    return ordinal < BlockCategory.COUNT ? BlockCategory.ofOrdinal(ordinal) : BlockCategory.DATA;
  }
}
