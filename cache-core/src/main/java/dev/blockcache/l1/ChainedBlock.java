package dev.blockcache.l1;

import dev.blockcache.api.BlockKey;
import dev.blockcache.buffer.HeapBlock;

/**
 * A block cached by an L1, with its file's name and its links in its file's chain ({@link FileChains}): the
 * per-block state every L1 needs for evict-by-file, kept in the block object itself so that no index node exists per
 * block. How the rest of the key is kept is the subclass's choice: a cache whose map holds the {@link BlockKey}
 * anyway keeps a reference to it; a cache whose index holds only blocks keeps the offset inline, so that a hit checks
 * the key without loading another object.
 *
 * <p>Thread-safety: the block, file and key are immutable; the chain fields are guarded by the lock of the cache's
 * {@link FileChains}.
 */
public abstract class ChainedBlock extends HeapBlock {
  /** Guarded by the chains' lock. */
  ChainedBlock fileNext;
  /** Guarded by the chains' lock. */
  ChainedBlock filePrev;
  /** Whether the block is linked in its file's chain. Guarded by the chains' lock. */
  boolean chained;
  /** Whether the block has left its cache; a dropped block is never chained again. Guarded by the chains' lock. */
  boolean dropped;

  /** {@code block}'s bytes, to be cached under the key the subclass keeps. */
  protected ChainedBlock(HeapBlock block) {
    super(block);
  }

  /** The name of the block's file: the {@link BlockKey#file()} of its key, the same {@code String}. */
  public abstract String file();

  /** The block's key, equal to the one it was cached under. */
  public abstract BlockKey key();
}
