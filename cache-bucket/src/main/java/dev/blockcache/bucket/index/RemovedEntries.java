package dev.blockcache.bucket.index;

import java.util.Arrays;

/**
 * The entries one segment operation removed, kept until the segment's write lock is released and then handed to the
 * {@link EntrySink}: sinks free slots through the pin table and the allocator, whose locks are never taken under a
 * segment lock (the lock order in {@code dev.blockcache.bucket}'s package notes).
 *
 * <p>Thread-safety: not thread-safe; one per operation, on the operating thread.
 */
final class RemovedEntries {
  private long[] entries = new long[8];
  private int count;

  void add(long entry) {
    if (count == entries.length) {
      entries = Arrays.copyOf(entries, count * 2);
    }
    entries[count++] = entry;
  }

  int count() {
    return count;
  }

  /** Hands every entry to {@code sink}, in removal order; call with no segment lock held. */
  void drainTo(EntrySink sink) {
    for (int i = 0; i < count; i++) {
      sink.removed(entries[i]);
    }
    count = 0;
  }
}
