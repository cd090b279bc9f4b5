package dev.blockcache.jmh.workload;

import java.util.SplittableRandom;

/**
 * Precomputed sequences of key indexes in {@code [0, keys)}, so that a benchmark's hot loop pays one array load and
 * one increment per operation instead of a random-number draw.
 *
 * <p>A sequence has a power-of-two length ({@link #LENGTH}); a reader walks it with {@code seq[i++ & MASK]}.
 * Sequences are built from a fixed seed, so every fork and every competitor sees the same keys in the same order.
 *
 * <p>Thread-safety: the factories are pure; the arrays they return are never written after construction.
 */
public final class KeyIndexes {
  /** Length of a sequence: 2^20 draws (4 MiB), long enough that the walk shows no short-period artefacts. */
  public static final int LENGTH = 1 << 20;
  /** {@code LENGTH - 1}, for {@code i & MASK}. */
  public static final int MASK = LENGTH - 1;

  private KeyIndexes() {
  }

  /** Indexes drawn uniformly from {@code [0, keys)}. */
  public static int[] uniform(int keys, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int[] seq = new int[LENGTH];
    for (int i = 0; i < LENGTH; i++) {
      seq[i] = random.nextInt(keys);
    }
    return seq;
  }

  /**
   * Indexes drawn from a Zipf distribution of exponent {@code s} over {@code keys} ranks: rank r (1-based) has
   * probability proportional to {@code 1 / r^s}. Ranks are mapped to key indexes through a random permutation, so
   * that the hottest keys are not the first ones inserted (which would flatter insertion-ordered structures).
   */
  public static int[] zipf(int keys, double s, long seed) {
    if (keys < 1 || s <= 0) {
      throw new IllegalArgumentException("zipf needs keys >= 1 and s > 0, was keys=" + keys + " s=" + s);
    }
    double[] cdf = new double[keys];
    double sum = 0;
    for (int r = 0; r < keys; r++) {
      sum += 1.0 / Math.pow(r + 1, s);
      cdf[r] = sum;
    }
    SplittableRandom random = new SplittableRandom(seed);
    int[] rankToKey = permutation(keys, random);
    int[] seq = new int[LENGTH];
    for (int i = 0; i < LENGTH; i++) {
      seq[i] = rankToKey[rankOf(cdf, random.nextDouble() * sum)];
    }
    return seq;
  }

  /** The first rank whose cumulative weight exceeds {@code u} (binary search over the increasing {@code cdf}). */
  private static int rankOf(double[] cdf, double u) {
    int lo = 0;
    int hi = cdf.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cdf[mid] > u) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private static int[] permutation(int n, SplittableRandom random) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }
}
