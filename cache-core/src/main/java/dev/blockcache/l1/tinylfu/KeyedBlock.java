package dev.blockcache.l1.tinylfu;

import dev.blockcache.api.BlockKey;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.l1.ChainedBlock;

/**
 * A block of a {@link TinyLfuBlockCache}, which is also its key in Caffeine's map: it keeps its key's file, offset and
 * hash inline and equals another {@code KeyedBlock} or a {@link LookupKey} of the same key. The map's value is the
 * block's bytes ({@link #mapValue()}), so that a hit loads the node's key (to compare) and value (the array) at once,
 * not the block and then its array.
 *
 * <p>Thread-safety: as {@link ChainedBlock}; the key fields are immutable.
 */
final class KeyedBlock extends ChainedBlock {
  private final String file;
  private final long offset;
  private final long hash64;
  /**
   * The value this block is cached under in Caffeine's map: its whole array if it spans one, else the
   * {@link HeapBlock} it was made from. Never this block: values are compared by {@code equals}, and a block equals
   * every block of its key, so a conditional removal of this block's entry could remove a newer block's.
   */
  private final Object mapValue;

  KeyedBlock(BlockKey key, HeapBlock block) {
    super(block);
    this.file = key.file();
    this.offset = key.offset();
    this.hash64 = key.hash64();
    byte[] whole = block.wholeArray();
    this.mapValue = whole != null ? whole : block;
  }

  /** The value this block is cached under in Caffeine's map: a {@code byte[]} or a {@link HeapBlock}. */
  Object mapValue() {
    return mapValue;
  }

  @Override
  public String file() {
    return file;
  }

  long offset() {
    return offset;
  }

  long hash64() {
    return hash64;
  }

  /** {@inheritDoc} Built anew on each call: for removals and tests, never for a hit. */
  @Override
  public BlockKey key() {
    return BlockKey.of(file, offset);
  }

  /** {@link BlockKey#hashCode()} of this block's key, so that a {@link LookupKey} of that key finds it. */
  @Override
  public int hashCode() {
    return Long.hashCode(hash64);
  }

  /** Whether {@code o} names the same key: another {@code KeyedBlock} or a {@link LookupKey}. */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o instanceof KeyedBlock other) {
      return hash64 == other.hash64 && offset == other.offset && file.equals(other.file);
    }
    return o instanceof LookupKey && o.equals(this);
  }

  @Override
  public String toString() {
    return file + "@" + offset;
  }
}
