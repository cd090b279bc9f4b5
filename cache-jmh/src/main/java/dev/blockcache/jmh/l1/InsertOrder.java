package dev.blockcache.jmh.l1;

/**
 * The order in which {@link L1InsertBenchmark} offers new blocks. Either way every block is offered once: block
 * {@code i} of {@link Keys} is in file {@code i % 32} at offset {@code (i / 32) × blockSize}.
 *
 * <p>Thread-safety: immutable.
 */
public enum InsertOrder {
  /** Blocks {@code 0, 1, 2, ...}: each file's offsets in turn, as a sequential scan of 32 files reads them. */
  SEQUENTIAL {
    @Override
    long block(long n) {
      return n;
    }
  },
  /**
   * The same blocks scattered within each run of {@value #WINDOW}: the {@code n}-th insert offers block
   * {@code n} with its low 16 bits multiplied by an odd constant (a bijection on them), so consecutive inserts land in
   * unrelated files and offsets, as the misses of random reads do. A window is 4× the 4 KiB cell's cache, so every
   * block offered is still new.
   */
  SCATTERED {
    @Override
    long block(long n) {
      return (n & ~(WINDOW - 1)) | ((n * 40_503L) & (WINDOW - 1));
    }
  };

  /** Blocks per scattered run. */
  static final long WINDOW = 1 << 16;

  /** The block offered by the {@code n}-th insert (from 0). */
  abstract long block(long n);
}
