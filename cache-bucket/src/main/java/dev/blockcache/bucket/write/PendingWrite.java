package dev.blockcache.bucket.write;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;

/**
 * A block accepted by {@code cacheBlock} or {@code handOver} and waiting for a writer thread: its key, its bytes
 * (a {@link WaitingBlock}, readable by gets while it waits) and the priority it enters with.
 *
 * <p>An eviction that takes a waiting block out of the RAM cache {@linkplain #withdraw withdraws} it; its writer
 * publishes the slot only through {@link #publishIn}, which does nothing once the block is withdrawn. The two are
 * atomic with respect to each other, so an evicted block is never visible in the index afterwards, not even for
 * the instant before its writer notices. A withdraw that comes after the publish tells its caller so: the block is in
 * the index then, and the eviction removes it there itself (its writer leaves the entry alone).
 *
 * <p>A block may be admitted with its slot already taken ({@link #slotEntry}: the index entry it is to be published
 * under); its writer then writes there instead of allocating, and whoever ends the block's way without publishing it
 * frees that slot: the writer, or the inserting thread if the queue never took the block.
 *
 * <p>Thread-safety: key, block, priority and slot entry are immutable; the withdrawn and published flags are guarded
 * by this object's monitor.
 */
public final class PendingWrite {
  private final BlockKey key;
  private final WaitingBlock block;
  private final CachePriority priority;
  /** The index entry of the slot taken at admission, or {@link IndexEntry#ABSENT}: the writer allocates one. */
  private final long slotEntry;
  /** Guarded by this. */
  @GuardedBy("this")
  private boolean withdrawn;
  /** Guarded by this: {@link #publishIn} mapped the key. */
  @GuardedBy("this")
  private boolean published;

  /** A block admitted without a slot: its writer allocates one. */
  public PendingWrite(BlockKey key, WaitingBlock block, CachePriority priority) {
    this(key, block, priority, IndexEntry.ABSENT);
  }

  /**
   * A block admitted with its slot: {@code slotEntry} is the index entry (offset, stored length, priority, category,
   * window bit) its writer publishes once the slot is written, or {@link IndexEntry#ABSENT} for none.
   */
  public PendingWrite(BlockKey key, WaitingBlock block, CachePriority priority, long slotEntry) {
    this.key = key;
    this.block = block;
    this.priority = priority;
    this.slotEntry = slotEntry;
  }

  public BlockKey key() {
    return key;
  }

  /** The block's bytes; see {@link WaitingBlock} for who holds them and until when. */
  public WaitingBlock block() {
    return block;
  }

  public CachePriority priority() {
    return priority;
  }

  /** The index entry of the slot taken at admission, or {@link IndexEntry#ABSENT} if the writer allocates one. */
  public long slotEntry() {
    return slotEntry;
  }

  /**
   * Marks the block evicted before (or while) its writer publishes it; see {@link #publishIn}.
   *
   * @return true if the block was never published, so that taking it out of the RAM cache removed it; false if its
   *     writer had mapped it already: it is then in the index (unless evicted from there since), and the caller
   *     removes and counts it there
   */
  public synchronized boolean withdraw() {
    withdrawn = true;
    return !published;
  }

  /**
   * Maps the key to {@code entry} in {@code index} unless the block was withdrawn or the key is mapped already.
   *
   * @return true if this call mapped the key; on false the caller still owns the slot {@code entry} names
   */
  public synchronized boolean publishIn(BlockIndex index, long entry) {
    published = !withdrawn && index.putIfAbsent(key, entry) == IndexEntry.ABSENT;
    return published;
  }
}
