package dev.blockcache.bucket.slot;

import dev.blockcache.api.BlockKey;
import dev.blockcache.bucket.BucketCache;

/**
 * Told when a block takes a slot of the L2 and when it leaves it, for bookkeeping kept beside the cache (bytes per
 * file or per region, say) without a scan. Entries are packed as {@link dev.blockcache.bucket.index.IndexEntry}
 * describes: slot offset, stored length, priority, category. A slot offset names one block from its
 * {@link #stored} to its {@link #removed}; after that the slot may hold another block.
 *
 * <p>Order: {@link #stored} runs before the entry becomes visible in the index, so that any removal of it follows
 * its {@link #stored}; when the publication then fails (the key was mapped meanwhile, or the block was withdrawn),
 * {@link #removed} follows at once. Entries already in slots when the listener is set (restored from a checkpoint)
 * are announced by {@link #stored} then ({@link BucketCache#listenToResidency}). No get calls the listener.
 *
 * <p>Thread-safety: implementations are called concurrently by writer threads, evicting threads and callers of the
 * eviction methods, sometimes under the cache's own locks: they must be thread-safe, return quickly, never block
 * and never call back into the cache.
 */
public interface ResidencyListener {
  /** The listener of a cache nobody listens to. */
  ResidencyListener NONE = new ResidencyListener() {
    @Override
    public void stored(BlockKey key, long entry) {}

    @Override
    public void removed(long entry) {}
  };

  /** {@code key}'s block is about to be published in the slot {@code entry} describes. */
  void stored(BlockKey key, long entry);

  /** The block in the slot {@code entry} describes left the index, or its publication failed. */
  void removed(long entry);
}
