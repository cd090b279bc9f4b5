package dev.blockcache.bucket.index;

/**
 * Receives each entry {@link BlockIndex} removes on its own initiative (eviction, removal by file, clear), so that
 * the caller can free the entry's slot.
 *
 * <p>Thread-safety: the index calls a sink while it holds the write lock of the entry's segment. A sink must
 * therefore be quick and non-blocking, and must not call back into the same index (the segment locks are not
 * reentrant: a call back into the same segment deadlocks).
 */
@FunctionalInterface
public interface EntrySink {
  /** {@code entry} (an {@link IndexEntry} value, never {@link IndexEntry#ABSENT}) is no longer in the index. */
  void removed(long entry);
}
