package dev.blockcache.bucket.write;

import dev.blockcache.api.BlockKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The blocks that {@code cacheBlock} accepted and no writer has finished yet, readable by gets while they wait.
 *
 * <p>Bounded by the writer pipeline: a block enters only with a queue slot (the caller removes it again when the
 * submission is refused), so at most {@code threads × queueLength} blocks plus one batch per writer are here.
 *
 * <p>Thread-safety: safe for concurrent use; removal is conditional on the exact {@link PendingWrite}, so a writer
 * that lost its block to an eviction can tell.
 */
public final class RamCache {
  private final ConcurrentHashMap<BlockKey, PendingWrite> pending = new ConcurrentHashMap<>();

  /** Adds {@code write} unless its key waits already; returns the block that waits already, or null. */
  PendingWrite putIfAbsent(PendingWrite write) {
    return pending.putIfAbsent(write.key(), write);
  }

  public PendingWrite get(BlockKey key) {
    return pending.get(key);
  }

  /** Whether no block waits: a few loads, no lookup. */
  public boolean isEmpty() {
    return pending.isEmpty();
  }

  /** Removes {@code write} if it is still the one waiting for its key. */
  boolean remove(PendingWrite write) {
    return pending.remove(write.key(), write);
  }

  /** Removes whatever waits for {@code key}; returns it or null. */
  public PendingWrite remove(BlockKey key) {
    return pending.remove(key);
  }

  /**
   * Removes every waiting block of {@code file}, passing each to {@code removed}; cost: the blocks waiting.
   *
   * @return how many of them {@code removed} returned true for
   */
  public int removeFile(String file, Predicate<PendingWrite> removed) {
    int count = 0;
    for (PendingWrite w : pending.values()) {
      if (w.key().file().equals(file) && pending.remove(w.key(), w) && removed.test(w)) {
        count++;
      }
    }
    return count;
  }

  /**
   * Removes the waiting blocks of {@code file} at offsets in [{@code from}, {@code to}), passing each to
   * {@code removed}; counts those for which it returns true.
   */
  public int removeRange(String file, long from, long to, Predicate<PendingWrite> removed) {
    int count = 0;
    for (PendingWrite w : pending.values()) {
      BlockKey key = w.key();
      if (key.file().equals(file) && key.offset() >= from && key.offset() < to && pending.remove(key, w)
          && removed.test(w)) {
        count++;
      }
    }
    return count;
  }

  /** Removes every waiting block, passing each to {@code removed}. */
  public void clear(Consumer<PendingWrite> removed) {
    for (PendingWrite w : pending.values()) {
      if (pending.remove(w.key(), w)) {
        removed.accept(w);
      }
    }
  }

  public int size() {
    return pending.size();
  }
}
