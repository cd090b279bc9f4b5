package dev.blockcache.bucket.policy;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.slot.SlotGuard;
import dev.blockcache.bucket.stats.BucketCounters;
import java.util.function.LongSupplier;

/**
 * Whether a block offered to the L2 is written at all, and, under tinylfu, the slot it is written to: the write budget
 * first ({@link WriteBudget}, if {@code hbase.bucketcache.admission.max.write.rate} is set), then the eviction
 * policy's admission ({@link SpaceReclaimer#admit}), which takes the admitted block's slot in the same step. A
 * declined block is counted by reason ({@link BucketCounters#notAdmitted}); it is not a failed insertion.
 *
 * <p>Ownership: a slot {@link #admit} returns belongs to the caller, who writes and publishes it or hands it back
 * through {@link #giveBack}.
 *
 * <p>Thread-safety: safe for concurrent use (its parts are).
 */
public final class Admission {
  /** {@link #admit}: admitted without a slot; the writer allocates one (the hbase policy). */
  static final long NO_SLOT = SpaceReclaimer.NO_SLOT;
  /** {@link #admit}: declined by the write budget. */
  private static final long OVER_WRITE_BUDGET = -10;
  /** {@link #admit}: declined by the eviction policy. */
  private static final long NOT_ADMITTED = -11;
  /** {@link #admit}: admitted, but no slot could be freed for it. */
  private static final long NO_SPACE = -12;

  private final SpaceReclaimer reclaimer;
  private final SlotGuard slots;
  private final BucketCounters counters;
  /** Null when the write rate is unbounded. */
  private final WriteBudget budget;

  public Admission(BucketCacheConfig config, long largestItem, SpaceReclaimer reclaimer, SlotGuard slots,
      BucketCounters counters, LongSupplier clockMs) {
    this.reclaimer = reclaimer;
    this.slots = slots;
    this.counters = counters;
    this.budget = config.maxWriteRate() > 0 ? new WriteBudget(config.maxWriteRate(), largestItem, clockMs) : null;
  }

  /**
   * Decides on a block of {@code stored} bytes (header and block) under {@code key}; under tinylfu an admission into
   * a full cache evicts the block it displaces, and the admitted block gets its slot.
   *
   * @return the admitted block's slot offset (the caller's: written, or handed back through {@link #giveBack}),
   *     {@link #NO_SLOT} when admitted without one, or a refusal that {@link #refusal} names
   */
  public long admit(BlockKey key, int stored) {
    if (budget != null && !budget.tryTake(stored)) {
      counters.notAdmitted(CacheResult.OVER_WRITE_BUDGET);
      return OVER_WRITE_BUDGET;
    }
    long slot = reclaimer.admit(key, stored);
    if (slot >= 0 || slot == NO_SLOT) {
      return slot;
    }
    if (budget != null) {
      budget.giveBack(stored); // not written
    }
    if (slot == SpaceReclaimer.DECLINED) {
      counters.notAdmitted(CacheResult.NOT_ADMITTED);
      return NOT_ADMITTED;
    }
    return NO_SPACE;
  }

  /**
   * Why {@code admitted} (a value {@link #admit} returned) keeps the block out, or null if it was admitted:
   * {@link CacheResult#OVER_WRITE_BUDGET} or {@link CacheResult#NOT_ADMITTED} (counted here, not failed insertions),
   * or {@link CacheResult#NO_SPACE} (a failed insertion, for the caller to count).
   */
  public static CacheResult refusal(long admitted) {
    if (admitted >= 0 || admitted == NO_SLOT) {
      return null;
    }
    if (admitted == OVER_WRITE_BUDGET) {
      return CacheResult.OVER_WRITE_BUDGET;
    }
    return admitted == NOT_ADMITTED ? CacheResult.NOT_ADMITTED : CacheResult.NO_SPACE;
  }

  /**
   * The index entry a block admitted into {@code slot} ({@code stored} bytes, with {@code options}) is published
   * under: see {@link SpaceReclaimer#entry}, which decides here, next to the allocation, whether it enters the
   * admission window.
   */
  public long slotEntry(long slot, int stored, CacheOptions options) {
    return reclaimer.entry(slot, stored, options.priority(), options.category());
  }

  /**
   * Hands back the slot of {@code stored} bytes at {@code slot} (a slot {@link #admit} returned, or {@link #NO_SLOT}:
   * nothing to do) for a block that is then not written: through the pin table, as every unpublished slot.
   */
  public void giveBack(long slot, int stored) {
    if (slot >= 0) {
      slots.free(slot, stored);
    }
  }
}
