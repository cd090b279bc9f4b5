package dev.blockcache.jmh.scale;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.jmh.l1.ThreeBytes;
import io.netty.buffer.ByteBuf;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * Gets the way a storage engine's reader makes them, on one thread for a fixed time: a uniform random key of
 * {@code [0, keys)}, built per lookup, a counted DATA get, three of the block's bytes read, the block released (the
 * caller of {@code getBlock} owns the one reference it returns). The latency of every hit is recorded; misses
 * (blocks evicted meanwhile) are counted apart.
 *
 * <p>Thread-safety: an instance is used by one thread.
 */
final class GetLoop {
  private static final ReadOptions READ = ReadOptions.of(BlockCategory.DATA);

  /** What a timed run measured. */
  record Result(double getsPerSecond, long hits, long misses, Histogram hitNanos) {
    double p999Micros() {
      return hitNanos.getValueAtPercentile(99.9) / 1000.0;
    }

    double p50Micros() {
      return hitNanos.getValueAtPercentile(50) / 1000.0;
    }
  }

  private final BucketCache cache;
  private final ScaleKeys names;
  private final SplittableRandom random;
  private int sink;

  GetLoop(BucketCache cache, ScaleKeys names, long seed) {
    this.cache = cache;
    this.names = names;
    this.random = new SplittableRandom(seed);
  }

  /** Gets of keys in {@code [0, keys)} for {@code millis} ms. */
  Result run(long keys, long millis) {
    Histogram histogram = new Histogram(60_000_000_000L, 3);
    long hits = 0;
    long misses = 0;
    long start = System.nanoTime();
    long end = start + millis * 1_000_000;
    long now = start;
    while (now < end) {
      long i = random.nextLong(keys);
      ByteBuf block = cache.getBlock(names.key(i), READ);
      if (block != null) {
        sink += ThreeBytes.of(block);
        block.release();
        long done = System.nanoTime();
        histogram.recordValue(done - now);
        hits++;
        now = done;
      } else {
        misses++;
        now = System.nanoTime();
      }
    }
    double seconds = (now - start) / 1e9;
    return new Result((hits + misses) / seconds, hits, misses, histogram);
  }

  /** {@code count} gets of keys in {@code [0, keys)}, however long they take. */
  Result runCount(long keys, int count) {
    Histogram histogram = new Histogram(60_000_000_000L, 3);
    long hits = 0;
    long start = System.nanoTime();
    for (int n = 0; n < count; n++) {
      ByteBuf block = cache.getBlock(names.key(random.nextLong(keys)), READ);
      if (block != null) {
        sink += ThreeBytes.of(block);
        block.release();
        hits++;
      }
    }
    return new Result(count / ((System.nanoTime() - start) / 1e9), hits, count - hits, histogram);
  }

  /** Keeps the bytes read live so that the JIT cannot drop the reads. */
  int sink() {
    return sink;
  }
}
