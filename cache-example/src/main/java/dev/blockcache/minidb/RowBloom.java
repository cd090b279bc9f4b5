package dev.blockcache.minidb;

import io.netty.buffer.ByteBuf;

/**
 * A bloom filter over row ids: {@link #HASHES} probes into a power-of-two bit array, ~10 bits per row (about 1%
 * false positives). A negative answer is exact: the row is not in the file.
 *
 * <p>Thread-safety: {@link #add} is not thread-safe (the writer builds the filter alone); once built, concurrent
 * {@link #mightContain} calls are safe because the bits are never changed again.
 */
public final class RowBloom {
  /** Probes per row: 3 keeps the false-positive rate near 1–2% at 10 bits per row. */
  static final int HASHES = 3;
  /** Bits per row before rounding up to a power of two. */
  static final int BITS_PER_ROW = 10;

  private final long[] bits;
  private final long mask;

  private RowBloom(long[] bits) {
    this.bits = bits;
    this.mask = (long) bits.length * 64 - 1;
  }

  /** An empty filter sized for {@code rows} rows. */
  public static RowBloom forRows(long rows) {
    long wanted = Math.max(64, rows * BITS_PER_ROW);
    long size = Long.highestOneBit(wanted - 1) << 1;
    if (size / 64 > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("rows=" + rows + " is too many for one bloom block");
    }
    return new RowBloom(new long[(int) (size / 64)]);
  }

  /** A filter over {@code bits} as read from a bloom block; the array is kept, not copied. */
  public static RowBloom wrap(long[] bits) {
    if (bits.length == 0 || Integer.bitCount(bits.length) != 1) {
      throw new IllegalArgumentException("bloom block of " + bits.length + " longs: expected a power of two");
    }
    return new RowBloom(bits);
  }

  /** Records {@code rowId}. */
  public void add(long rowId) {
    long h = mix(rowId);
    for (int i = 0; i < HASHES; i++) {
      long bit = probe(h, i, mask);
      bits[(int) (bit >>> 6)] |= 1L << bit;
    }
  }

  /** False if {@code rowId} is certainly absent; true if it may be present. */
  public boolean mightContain(long rowId) {
    long h = mix(rowId);
    for (int i = 0; i < HASHES; i++) {
      long bit = probe(h, i, mask);
      if ((bits[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@link #mightContain} over a bloom block as stored in the file (big-endian longs, the block's readable bytes),
   * read in place: for a block held by a block cache. The block's reference count and indexes do not change.
   *
   * @throws IllegalArgumentException if the block is not a power-of-two number of longs
   */
  public static boolean mightContain(ByteBuf bloomBlock, long rowId) {
    int longs = bloomBlock.readableBytes() / Long.BYTES;
    if (longs == 0 || Integer.bitCount(longs) != 1 || bloomBlock.readableBytes() % Long.BYTES != 0) {
      throw new IllegalArgumentException("bloom block of " + bloomBlock.readableBytes()
          + " bytes: expected a power of two of longs");
    }
    long blockMask = (long) longs * 64 - 1;
    long h = mix(rowId);
    for (int i = 0; i < HASHES; i++) {
      long bit = probe(h, i, blockMask);
      long word = bloomBlock.getLong(bloomBlock.readerIndex() + (int) (bit >>> 6) * Long.BYTES);
      if ((word & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** The bit of probe {@code i} for hash {@code h} in a filter of {@code mask + 1} bits. */
  private static long probe(long h, int i, long mask) {
    return (h + i * (h >>> 32 | 1)) & mask;
  }

  /** The bit array, for the writer; callers must not change it. */
  long[] bits() {
    return bits;
  }

  private static long mix(long x) {
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return x ^ (x >>> 33);
  }
}
