package dev.blockcache.jmh.workload;

/**
 * How a benchmark picks the next key, as a {@code @Param}: each constant builds a precomputed sequence of
 * {@link KeyIndexes#LENGTH} key indexes from a fixed seed.
 *
 * <p>Thread-safety: immutable.
 */
public enum KeyDistribution {
  /** Every key equally likely. */
  UNIFORM {
    @Override
    public int[] sequence(int keys, long seed) {
      return KeyIndexes.uniform(keys, seed);
    }
  },
  /** Zipf with exponent 0.99 (YCSB's and most caching papers' skew), hottest ranks scattered over the key space. */
  ZIPF {
    @Override
    public int[] sequence(int keys, long seed) {
      return KeyIndexes.zipf(keys, ZIPF_EXPONENT, seed);
    }
  };

  /** The Zipf exponent s of {@link #ZIPF}. */
  public static final double ZIPF_EXPONENT = 0.99;

  /** A sequence of key indexes in {@code [0, keys)}, the same for the same arguments. */
  public abstract int[] sequence(int keys, long seed);
}
