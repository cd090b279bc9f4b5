package dev.blockcache.l1;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.buffer.HeapBlock;
import io.netty.buffer.ByteBuf;

/**
 * How an L1 insert turns the caller's buffer into the {@link HeapBlock} it keeps: the two insert methods of
 * {@link dev.blockcache.api.BlockCache}.
 *
 * <p>Thread-safety: stateless.
 */
public enum Insert {
  /** {@code cacheBlock}: the caller keeps its buffer, so the cache copies the bytes. */
  COPY {
    @Override
    public HeapBlock heapBlock(ByteBuf block, BlockCategory category) {
      return HeapBlock.copyOf(block, category);
    }
  },
  /** {@code handOver}: the caller gives its buffer up, so the cache may keep its heap array. */
  HAND_OVER {
    @Override
    public HeapBlock heapBlock(ByteBuf block, BlockCategory category) {
      return HeapBlock.keepOrCopy(block, category);
    }
  };

  /**
   * The heap block to cache for {@code block}'s readable bytes; {@code block}'s reference count and indexes are not
   * changed (the insert method's caller, or the cache for a hand-over, releases it).
   */
  public abstract HeapBlock heapBlock(ByteBuf block, BlockCategory category);
}
