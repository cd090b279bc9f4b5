package dev.blockcache.l1;

import dev.blockcache.api.BlockKey;
import dev.blockcache.buffer.HeapBlock;

/**
 * A block cached by an L1, with its key and its links in its file's chain ({@link FileChains}): the per-block state
 * every L1 needs for evict-by-file, kept in the block object itself so that no index node exists per block.
 *
 * <p>Thread-safety: the block and key are immutable; the chain fields are guarded by the lock of the cache's
 * {@link FileChains}.
 */
public class ChainedBlock extends HeapBlock {
  private final BlockKey key;
  /** Guarded by the chains' lock. */
  ChainedBlock fileNext;
  /** Guarded by the chains' lock. */
  ChainedBlock filePrev;
  /** Whether the block is linked in its file's chain. Guarded by the chains' lock. */
  boolean chained;
  /** Whether the block has left its cache; a dropped block is never chained again. Guarded by the chains' lock. */
  boolean dropped;

  /** {@code block}'s bytes cached under {@code key}. */
  public ChainedBlock(BlockKey key, HeapBlock block) {
    super(block);
    this.key = key;
  }

  public final BlockKey key() {
    return key;
  }
}
