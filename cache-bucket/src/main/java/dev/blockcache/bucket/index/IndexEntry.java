package dev.blockcache.bucket.index;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CachePriority;

/**
 * Descriptor of the packed value the L2 index keeps per cached block: where the block's slot starts on the device,
 * how many bytes are stored there, whether the block is in the admission window, and the block's priority and
 * category, in one {@code long}.
 *
 * <pre>
 *  63 62                                 28 27 26                      4  3   2  1   0
 *  +--+------------------------------------+--+-------------------------+------+------+
 *  | 0|  slot offset / 256  (35 bits)      | W| stored length (23 bits) | prio | cat  |
 *  +--+------------------------------------+--+-------------------------+------+------+
 * </pre>
 * <ul>
 *   <li>slot offset: in units of {@link #OFFSET_UNIT} bytes, so offsets up to {@link #MAX_OFFSET} (8 TiB) fit:
 *       64M blocks of 64 KiB in HBase's 66,560-byte items take 4.2 TiB;</li>
 *   <li>W: the admission-window bit of the tinylfu policy (set on a block admitted into a full cache, cleared when
 *       it leaves the window); the window is this bit, so its membership costs no heap of its own;</li>
 *   <li>stored length: bytes in the slot (header plus block), {@code 0 .. }{@link #MAX_LENGTH} (8 MiB - 1, sixteen times
 *       HBase's largest default item); a block
 *       that with its header would not fit is refused at insert ({@code TOO_LARGE});</li>
 *   <li>prio: the {@link CachePriority} ordinal; cat: the {@link BlockCategory} ordinal.</li>
 * </ul>
 * Bit 63 of a packed value is always 0, so a packed value is never negative and {@link #ABSENT} ({@code -1}) can
 * never be confused with one. ({@link BlockIndex} borrows bit 63 of the words it stores as the CLOCK reference bit;
 * it never returns it.) The index checkpoint stores this value as it is, so a change to this layout changes the
 * checkpoint's version ({@code IndexFileLayout.VERSION}).
 *
 * <p>Thread-safety: stateless.
 */
public final class IndexEntry {
  /** "No entry": the value lookups return on a miss. No packed value equals it. */
  public static final long ABSENT = -1L;

  /** Slot offsets are multiples of this many bytes (the allocator's alignment); 256 keeps 8 TiB within 35 bits. */
  public static final int OFFSET_UNIT = 256;
  /** Width of the offset field, in units of {@link #OFFSET_UNIT}. */
  public static final int OFFSET_BITS = 35;
  /** Width of the window field: one bit. */
  public static final int WINDOW_BITS = 1;
  /**
   * Width of the length field: 23 bits, 8 MiB, far above HBase's largest default item (513 KiB); the bit below 24
   * went to the offset, so that 64M blocks of 64 KiB are addressable.
   */
  public static final int LENGTH_BITS = 23;
  /** Width of the priority field (three priorities). */
  public static final int PRIORITY_BITS = 2;
  /** Width of the category field (four categories). */
  public static final int CATEGORY_BITS = 2;

  public static final int CATEGORY_SHIFT = 0;
  public static final int PRIORITY_SHIFT = CATEGORY_SHIFT + CATEGORY_BITS;
  public static final int LENGTH_SHIFT = PRIORITY_SHIFT + PRIORITY_BITS;
  public static final int WINDOW_SHIFT = LENGTH_SHIFT + LENGTH_BITS;
  public static final int OFFSET_SHIFT = WINDOW_SHIFT + WINDOW_BITS;

  /** Largest storable length in bytes: 2^23 - 1. */
  public static final int MAX_LENGTH = (1 << LENGTH_BITS) - 1;
  /** Largest storable slot offset in bytes: (2^35 - 1) * 256, just under 8 TiB. */
  public static final long MAX_OFFSET = ((1L << OFFSET_BITS) - 1) * OFFSET_UNIT;

  private static final long CATEGORY_MASK = (1L << CATEGORY_BITS) - 1;
  private static final long PRIORITY_MASK = (1L << PRIORITY_BITS) - 1;
  private static final long LENGTH_MASK = (1L << LENGTH_BITS) - 1;
  private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;
  private static final long WINDOW_BIT = 1L << WINDOW_SHIFT;

  static {
    // The five fields fill bits 0..62 exactly; bit 63 stays free.
    assert OFFSET_SHIFT + OFFSET_BITS == 63;
  }

  private IndexEntry() {}

  /**
   * Packs a slot, outside the admission window.
   *
   * @throws IllegalArgumentException if {@code offset} is negative, not a multiple of {@link #OFFSET_UNIT} or above
   *     {@link #MAX_OFFSET}, or {@code length} is outside {@code [0, MAX_LENGTH]}
   */
  public static long pack(long offset, int length, CachePriority priority, BlockCategory category) {
    if (offset < 0 || offset > MAX_OFFSET || offset % OFFSET_UNIT != 0) {
      throw new IllegalArgumentException("slot offset must be a multiple of " + OFFSET_UNIT + " in [0, " + MAX_OFFSET
          + "], was " + offset);
    }
    if (length < 0 || length > MAX_LENGTH) {
      throw new IllegalArgumentException("stored length (header and block) must be in [0, " + MAX_LENGTH
          + "] bytes, was " + length);
    }
    return (offset / OFFSET_UNIT) << OFFSET_SHIFT
        | (long) length << LENGTH_SHIFT
        | (long) priority.ordinal() << PRIORITY_SHIFT
        | (long) category.ordinal() << CATEGORY_SHIFT;
  }

  /** Whether the block is in the admission window. */
  public static boolean inWindow(long entry) {
    return (entry & WINDOW_BIT) != 0;
  }

  /** {@code entry} in the admission window; every other field unchanged. */
  public static long intoWindow(long entry) {
    return entry | WINDOW_BIT;
  }

  /** {@code entry} out of the admission window; every other field unchanged. */
  public static long outOfWindow(long entry) {
    return entry & ~WINDOW_BIT;
  }

  /** The slot offset in bytes. */
  public static long offset(long entry) {
    return ((entry >>> OFFSET_SHIFT) & OFFSET_MASK) * OFFSET_UNIT;
  }

  /** The stored length in bytes. */
  public static int length(long entry) {
    return (int) ((entry >>> LENGTH_SHIFT) & LENGTH_MASK);
  }

  public static CachePriority priority(long entry) {
    return CachePriority.ofOrdinal(priorityOrdinal(entry));
  }

  public static BlockCategory category(long entry) {
    return BlockCategory.ofOrdinal((int) ((entry >>> CATEGORY_SHIFT) & CATEGORY_MASK));
  }

  /** {@code entry} with its priority replaced by {@code p}; every other field unchanged. */
  public static long withPriority(long entry, CachePriority p) {
    return (entry & ~(PRIORITY_MASK << PRIORITY_SHIFT)) | (long) p.ordinal() << PRIORITY_SHIFT;
  }

  /** The priority ordinal, without the enum lookup (hot paths). */
  static int priorityOrdinal(long entry) {
    return (int) ((entry >>> PRIORITY_SHIFT) & PRIORITY_MASK);
  }

  /** A readable form for messages and tests. */
  public static String toString(long entry) {
    if (entry == ABSENT) {
      return "ABSENT";
    }
    return "[offset=" + offset(entry) + ", length=" + length(entry) + ", " + priority(entry) + ", "
        + category(entry) + (inWindow(entry) ? ", window" : "") + "]";
  }
}
