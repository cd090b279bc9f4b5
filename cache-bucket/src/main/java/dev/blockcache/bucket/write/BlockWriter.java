package dev.blockcache.bucket.write;

import java.util.List;

/**
 * What a writer thread does with a batch of pending blocks: allocate, write to the engine, index. Implemented by the
 * cache; the pipeline only moves batches.
 *
 * <p>Implementations must be thread-safe: each writer thread calls it with its own batches.
 */
@FunctionalInterface
public interface BlockWriter {
  /** Writes {@code batch}; must not throw (a block that cannot be written is dropped and counted by the writer). */
  void write(List<PendingWrite> batch);
}
