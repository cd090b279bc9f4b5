package dev.blockcache.l1.tinylfu;

import com.github.benmanes.caffeine.cache.Policy;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.TinyLfuConfig;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The entry count a {@link TinyLfuBlockCache} bounds Caffeine by, so that the cache holds at most its capacity in
 * bytes while Caffeine decides as its count-bounded mode does (the cache's class notes say why). It starts at what the
 * capacity holds in blocks of the operator's expected size and is re-derived from the cached blocks' mean weight: lowered
 * when they are heavier (the size passed the overshoot bound), raised when they are lighter (the cache is at its bound
 * with more than 1/16 of the capacity free). Blocks of the expected size never move it.
 *
 * <p>Thread-safety: safe for concurrent use. Changes serialise on this object's lock, which is taken outside
 * Caffeine's locks, never inside them; {@link #get} reads without it.
 */
final class CountBound {
  /**
   * A cache at its count bound with more than {@code capacity >> RAISE_SHIFT} (1/16) free raises the bound: lighter
   * blocks than expected fill the capacity, and the hysteresis keeps blocks near the expected weight from moving the
   * bound (each move restarts Caffeine's hill climber).
   */
  static final int RAISE_SHIFT = 4;

  private final long capacity;
  /** {@code capacity − capacity / 16}: a cache at its count bound below this size raises the bound. */
  private final long raiseBelow;
  private final AtomicLong weightedSize;
  private final LongSupplier entries;
  private final Policy.Eviction<?, ?> eviction;
  private final Consumer<Runnable> maintenance;
  private final Object lock = new Object();
  /** Written under lock. */
  private volatile long bound;

  /**
   * The bound of a cache of {@code config} over Caffeine's {@code eviction} policy, which was built with
   * {@link #initial}: {@code weightedSize} is the cache's byte total, {@code entries} its block count, and
   * {@code maintenance} runs a Caffeine maintenance task as the cache counts it.
   */
  CountBound(TinyLfuConfig config, AtomicLong weightedSize, LongSupplier entries, Policy.Eviction<?, ?> eviction,
      Consumer<Runnable> maintenance) {
    this.capacity = config.capacity();
    this.raiseBelow = capacity - (capacity >>> RAISE_SHIFT);
    this.weightedSize = weightedSize;
    this.entries = entries;
    this.eviction = eviction;
    this.maintenance = maintenance;
    this.bound = initial(config);
  }

  /** What the capacity holds in blocks of the expected size ({@link TinyLfuConfig#minBlockSize()}), at least 1. */
  static long initial(TinyLfuConfig config) {
    return Math.max(1, config.capacity() / (config.minBlockSize() + HeapBlock.TINYLFU_ENTRY_OVERHEAD));
  }

  /** The entry count Caffeine is bounded by now. */
  long get() {
    return bound;
  }

  /**
   * Runs {@code cleanUp} (Caffeine's pending maintenance), then, while the size is above the capacity, lowers the bound
   * to what the capacity holds at the cached blocks' mean weight (again if the evictions left heavier blocks: each
   * round lowers it by at least one, so the loop ends). If a bound of one block is still too much (a block heavier than
   * the whole capacity), runs {@code removeAll}.
   */
  void fit(Runnable cleanUp, Runnable removeAll) {
    synchronized (lock) {
      maintenance.accept(cleanUp);
      long size;
      while ((size = weightedSize.get()) > capacity && bound > 1) {
        long fit = (long) ((double) entries.getAsLong() * capacity / size);
        setLocked(Math.max(1, Math.min(fit, bound - 1)));
      }
      if (weightedSize.get() > capacity) {
        removeAll.run();
      }
    }
  }

  /** Raises the bound to what the capacity holds at the cached blocks' mean weight, if the cache is full below it. */
  void raiseIfRoom() {
    if (weightedSize.get() >= raiseBelow || entries.getAsLong() < bound) {
      return;
    }
    synchronized (lock) {
      long size = weightedSize.get();
      long cached = entries.getAsLong();
      if (size <= 0 || size >= raiseBelow || cached < bound) {
        return; // another insert raised it, or blocks left
      }
      long fit = (long) ((double) cached * capacity / size);
      if (fit > bound) {
        setLocked(fit);
      }
    }
  }

  /** Bounds Caffeine by {@code newBound} entries, evicting down to it now on the calling thread. */
  @GuardedBy("lock")
  private void setLocked(long newBound) {
    bound = newBound;
    maintenance.accept(() -> eviction.setMaximum(newBound));
  }
}
