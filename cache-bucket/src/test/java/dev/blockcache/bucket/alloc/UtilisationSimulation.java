package dev.blockcache.bucket.alloc;

import java.util.SplittableRandom;

/**
 * A deterministic model of an L2 under churn: blocks of random length are allocated until an allocation fails
 * (the cache is full); from then on every new block that does not fit makes the model evict random live blocks
 * until it fits. Utilisation ({@code blockBytes / capacity}) is sampled at every moment an allocation fails, which
 * is exactly "once full".
 *
 * <p>Thread-safety: not thread-safe; one instance per run.
 */
final class UtilisationSimulation {
  /** Utilisation when the first fill failed, and mean and minimum over the full moments of the churn phase. */
  static final class Result {
    final double afterFill;
    final double meanWhenFull;
    final double minWhenFull;
    final long evictions;

    Result(double afterFill, double meanWhenFull, double minWhenFull, long evictions) {
      this.afterFill = afterFill;
      this.meanWhenFull = meanWhenFull;
      this.minWhenFull = minWhenFull;
      this.evictions = evictions;
    }

    @Override
    public String toString() {
      return String.format("afterFill=%.4f meanWhenFull=%.4f minWhenFull=%.4f evictions=%d",
          afterFill, meanWhenFull, minWhenFull, evictions);
    }
  }

  private final BucketAllocator allocator;
  private final SplittableRandom random;
  private long[] offsets = new long[1024];
  private int[] lengths = new int[1024];
  private int live;
  private long evictions;

  UtilisationSimulation(BucketAllocator allocator, long seed) {
    this.allocator = allocator;
    this.random = new SplittableRandom(seed);
  }

  /** Fills with lengths uniform in [minLength, maxLength]; returns utilisation at the first failed allocation. */
  double fill(int minLength, int maxLength) {
    while (true) {
      int length = minLength + random.nextInt(maxLength - minLength + 1);
      long offset = allocator.allocate(length);
      if (offset < 0) {
        return allocator.stats().utilisation();
      }
      add(offset, length);
    }
  }

  /** Inserts {@code arrivals} blocks of lengths uniform in [minLength, maxLength], evicting random blocks as needed. */
  Result churn(double afterFill, int arrivals, int minLength, int maxLength) {
    double sum = 0;
    double min = 1;
    long samples = 0;
    for (int a = 0; a < arrivals; a++) {
      int length = minLength + random.nextInt(maxLength - minLength + 1);
      long offset = allocator.allocate(length);
      if (offset < 0) {
        double u = allocator.stats().utilisation();
        sum += u;
        min = Math.min(min, u);
        samples++;
        while (offset < 0) {
          evictRandom();
          offset = allocator.allocate(length);
        }
      }
      add(offset, length);
    }
    return new Result(afterFill, samples == 0 ? Double.NaN : sum / samples, min, evictions);
  }

  /** The usual run: fill, then 4× as many arrivals as the fill held. */
  static Result run(int[] sizes, long capacity, long seed, int minLength, int maxLength) {
    UtilisationSimulation sim = new UtilisationSimulation(new BucketAllocator(capacity, sizes), seed);
    double afterFill = sim.fill(minLength, maxLength);
    return sim.churn(afterFill, sim.live * 4, minLength, maxLength);
  }

  int live() {
    return live;
  }

  private void add(long offset, int length) {
    if (live == offsets.length) {
      offsets = java.util.Arrays.copyOf(offsets, live * 2);
      lengths = java.util.Arrays.copyOf(lengths, live * 2);
    }
    offsets[live] = offset;
    lengths[live] = length;
    live++;
  }

  private void evictRandom() {
    int i = random.nextInt(live);
    allocator.free(offsets[i], lengths[i]);
    live--;
    offsets[i] = offsets[live];
    lengths[i] = lengths[live];
    evictions++;
  }
}
