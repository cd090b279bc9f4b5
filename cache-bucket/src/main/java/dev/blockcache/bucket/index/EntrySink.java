package dev.blockcache.bucket.index;

/**
 * Receives each entry {@link BlockIndex} removes on its own initiative (eviction, removal by file, clear), so that
 * the caller can free the entry's slot.
 *
 * <p>Thread-safety: the index calls a sink after it released the segment's lock (it may still hold the CLOCK hand
 * of the priority being evicted), so a sink may take the pin table's and the allocator's locks: see the lock order
 * in {@code dev.blockcache.bucket}'s package notes. A sink must not call back into the index's eviction of the same
 * priority (the hand's monitor is held).
 */
@FunctionalInterface
public interface EntrySink {
  /** {@code entry} (an {@link IndexEntry} value, never {@link IndexEntry#ABSENT}) is no longer in the index. */
  void removed(long entry);
}
