package dev.blockcache.l1.tinylfu;

import dev.blockcache.api.BlockKey;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.l1.ChainedBlock;

/**
 * A block of a {@link TinyLfuBlockCache}: Caffeine's node holds the {@link BlockKey} already, so the block keeps a
 * reference to that same key rather than copies of its fields.
 *
 * <p>Thread-safety: as {@link ChainedBlock}.
 */
final class KeyedBlock extends ChainedBlock {
  private final BlockKey key;

  KeyedBlock(BlockKey key, HeapBlock block) {
    super(block);
    this.key = key;
  }

  @Override
  public String file() {
    return key.file();
  }

  @Override
  public BlockKey key() {
    return key;
  }
}
