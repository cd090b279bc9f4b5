package dev.blockcache.bucket.slot;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.index.EntrySink;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.stats.BucketCounters;
import dev.blockcache.stats.StatsRecorder;

/**
 * The two sinks that take index entries out of one {@link BucketCache}: {@link #evicted} for entries the reclaimer
 * chose (counted as evictions) and {@link #removed} for entries a caller asked to drop or that failed a check. Both
 * free the slot through the {@link SlotGuard}, so a slot returns to the allocator only after its last pin.
 *
 * <p>Thread-safety: safe for concurrent use. The index calls the sinks after releasing its segment lock (an eviction
 * may still hold its CLOCK hand); they take the pin table's and the allocator's locks, which are leaves of the lock
 * order in this package's notes.
 */
public final class SlotRelease {
  public final EntrySink evicted = this::evicted;
  public final EntrySink removed = this::removed;

  private final StatsRecorder stats;
  private final BucketCounters counters;
  private final SlotGuard slots;
  private final ResidencyListener residency;

  public SlotRelease(StatsRecorder stats, BucketCounters counters, SlotGuard slots, ResidencyListener residency) {
    this.stats = stats;
    this.counters = counters;
    this.slots = slots;
    this.residency = residency;
  }

  private void evicted(long entry) {
    stats.evicted(IndexEntry.category(entry));
    removed(entry);
  }

  private void removed(long entry) {
    counters.blockRemoved(IndexEntry.category(entry));
    residency.removed(entry);
    slots.free(IndexEntry.offset(entry), IndexEntry.length(entry));
  }
}
