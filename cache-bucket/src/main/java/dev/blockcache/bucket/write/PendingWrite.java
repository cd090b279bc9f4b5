package dev.blockcache.bucket.write;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.buffer.HeapBlock;

/**
 * A block accepted by {@code cacheBlock} and waiting for a writer thread: its key, a heap copy of its bytes (readable
 * by gets while it waits) and the priority it enters with.
 *
 * <p>Thread-safety: immutable.
 */
public final class PendingWrite {
  private final BlockKey key;
  private final HeapBlock block;
  private final CachePriority priority;

  public PendingWrite(BlockKey key, HeapBlock block, CachePriority priority) {
    this.key = key;
    this.block = block;
    this.priority = priority;
  }

  public BlockKey key() {
    return key;
  }

  public HeapBlock block() {
    return block;
  }

  public CachePriority priority() {
    return priority;
  }
}
