package dev.blockcache.bucket.persist;

/**
 * Descriptor of the persisted L2 index file (a checkpoint). All integers are big-endian.
 *
 * <pre>
 *  0        4        8                16       20
 *  +--------+--------+----------------+--------+
 *  | magic  | version| config fp (8)  | segs   |   header, {@link #HEADER_LENGTH} bytes
 *  +--------+--------+----------------+--------+
 *  | segment (4) | fingerprint (8) | entry (8) |   one record per entry, {@link #RECORD_LENGTH} bytes
 *  |    ...                                    |
 *  +-------------------------------------------+
 *  | entry count (8)          | CRC32C (4)     |   trailer, {@link #TRAILER_LENGTH} bytes
 *  +-------------------------------------------+
 * </pre>
 * <ul>
 *   <li>config fp: a 64-bit hash of capacity, bucket sizes and engine spec; a different value means another
 *       configuration wrote the file and it is discarded;</li>
 *   <li>segs: the index's segment count, which {@code BlockIndex.restore} needs to match;</li>
 *   <li>entry count: must equal (file length - header - trailer) / record length, so every length is bounded by the
 *       file size before anything is allocated;</li>
 *   <li>CRC32C: over every byte before it (header, records, entry count).</li>
 * </ul>
 *
 * <p>Thread-safety: stateless.
 */
public final class IndexFileLayout {
  /** "BCIX": blockcache index. */
  public static final int MAGIC = 0x42434958;
  /** Bumped on any change to this layout; another version is discarded. */
  public static final int VERSION = 3;

  public static final int MAGIC_OFFSET = 0;
  public static final int VERSION_OFFSET = 4;
  public static final int CONFIG_OFFSET = 8;
  public static final int SEGMENTS_OFFSET = 16;
  public static final int HEADER_LENGTH = 20;

  /** segment (int) + fingerprint (long) + entry (long). */
  public static final int RECORD_LENGTH = 20;
  /** entry count (long) + CRC32C (int). */
  public static final int TRAILER_LENGTH = 12;

  private IndexFileLayout() {}

  /** The exact file length for {@code entries} records. */
  public static long fileLength(long entries) {
    return HEADER_LENGTH + entries * RECORD_LENGTH + TRAILER_LENGTH;
  }
}
