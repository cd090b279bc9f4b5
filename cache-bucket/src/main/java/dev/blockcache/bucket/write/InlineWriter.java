package dev.blockcache.bucket.write;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.policy.SpaceReclaimer;
import dev.blockcache.bucket.slot.ResidencyListener;
import dev.blockcache.bucket.slot.SlotGuard;
import dev.blockcache.bucket.stats.BucketCounters;
import dev.blockcache.bucket.stats.SlotFaults;
import io.netty.buffer.ByteBuf;

/**
 * The write path of {@code hbase.bucketcache.writer.inline=true} (memory engines only): {@code cacheBlock} puts the
 * block into its slot on the calling thread. Without that key, a memory engine's {@code cacheBlock} takes this path
 * too whenever it has a slot without a writer's eviction: the one it was admitted with (tinylfu, {@link #writeAt}),
 * or one free now (hbase, {@link #writeIfFree}); it queues for the writers otherwise. One copy
 * of the block (the caller's buffer into the slot) instead of two (into a heap copy, then into the slot), no RAM
 * cache, no queue, no writer thread.
 *
 * <h2>Steps and races</h2>
 * <ol>
 *   <li>Allocate a slot, evicting if needed (the same {@link SpaceReclaimer} the writers use; its cost is what it
 *       evicts), or take the one the block was admitted with (tinylfu). No slot: {@link CacheResult#NO_SPACE}.</li>
 *   <li>Pin the slot through {@link SlotGuard#pin}, which fails once the cache is closed: the pin keeps the
 *       engine's memory alive for the write, as a reader's pin does for a read.</li>
 *   <li>Write header and block, then publish the slot in the index. A reader finds the key only after the slot is
 *       whole. If another thread published the same key first, the slot goes back through the pin table and the
 *       result is {@link CacheResult#ALREADY_CACHED}.</li>
 *   <li>Unpin. An eviction or {@code evictBlock} after the publication frees the slot through the pin table as for
 *       any entry; one that ran before it found nothing to evict, and the block stays cached, as if it had been
 *       cached just after the eviction.</li>
 * </ol>
 *
 * <p>Ownership: the caller's buffer is only read (indexes and reference count unchanged), as {@code cacheBlock}
 * promises.
 *
 * <p>Thread-safety: safe for concurrent use; holds no state of its own.
 */
public final class InlineWriter {
  private final SlotGuard slots;
  private final IoEngine engine;
  private final SpaceReclaimer reclaimer;
  private final BucketAllocator allocator;
  private final BlockIndex index;
  private final BucketCounters counters;
  private final SlotFaults faults;
  private final ResidencyListener residency;

  public InlineWriter(SlotGuard slots, SpaceReclaimer reclaimer, BucketAllocator allocator, BlockIndex index,
      BucketCounters counters, SlotFaults faults, ResidencyListener residency) {
    if (!slots.engine().isMemory()) {
      throw new IllegalArgumentException("inline writes need a memory engine, not " + slots.engine().spec());
    }
    this.slots = slots;
    this.engine = slots.engine();
    this.reclaimer = reclaimer;
    this.allocator = allocator;
    this.index = index;
    this.counters = counters;
    this.faults = faults;
    this.residency = residency;
  }

  /**
   * Caches {@code block} under {@code key} in a slot of {@code stored} bytes: its header length plus its length.
   * {@code block} is only read; the caller keeps its reference.
   */
  CacheResult write(BlockKey key, ByteBuf block, CacheOptions options, int stored) {
    long offset = reclaimer.allocateReclaiming(stored);
    if (offset < 0) {
      return CacheResult.NO_SPACE;
    }
    return writeAt(key, block, options, offset, stored);
  }

  /**
   * As {@link #write} if a slot is free now; evicts nothing.
   *
   * @return the result, or null (nothing done) when no slot of the block's size is free without evicting
   */
  CacheResult writeIfFree(BlockKey key, ByteBuf block, CacheOptions options, int stored) {
    long offset = allocator.allocate(stored);
    return offset < 0 ? null : writeAt(key, block, options, offset, stored);
  }

  /**
   * As {@link #write} into the slot of {@code stored} bytes at {@code offset}, which the caller took (at admission)
   * and hands to this call: it is published, or freed again.
   */
  CacheResult writeAt(BlockKey key, ByteBuf block, CacheOptions options, long offset, int stored) {
    if (!slots.pin(offset)) {
      slots.free(offset, stored);
      return CacheResult.DISABLED;
    }
    try {
      return writeAndPublish(key, block, options, offset, stored);
    } finally {
      slots.unpin(offset);
    }
  }

  private CacheResult writeAndPublish(BlockKey key, ByteBuf block, CacheOptions options, long offset, int stored) {
    try {
      SlotWriter.writeInPlace(engine, key, options.category(), block, offset, stored);
    } catch (RuntimeException e) {
      return dropped(offset, stored, e); // memory engines have no device: e.g. the engine closed under this write
    }
    long entry = reclaimer.entry(offset, stored, options.priority(), options.category());
    residency.stored(key, entry);
    if (index.putIfAbsent(key, entry) != IndexEntry.ABSENT) {
      residency.removed(entry);
      slots.free(offset, stored);
      return CacheResult.ALREADY_CACHED;
    }
    counters.blockAdded(options.category());
    return CacheResult.CACHED;
  }

  private CacheResult dropped(long offset, int stored, Exception e) {
    slots.free(offset, stored);
    faults.warn("L2 inline write of {} bytes at offset {} failed: {}", stored, offset, e.toString());
    return CacheResult.NO_SPACE;
  }
}
