package dev.blockcache.api;

import io.netty.buffer.ByteBuf;

/**
 * What a caller does with a cached block inside {@link BlockCache#read}: the block is lent for the duration of the
 * call only.
 *
 * <p>Thread-safety: called on the thread that called {@code read}; an implementation that only reads its own fields
 * and the block needs no synchronisation.
 */
@FunctionalInterface
public interface BlockReader {
  /**
   * Reads {@code block}, which is borrowed for this call: the reader neither retains nor releases it (the cache
   * releases it when the call returns, and refuses a retain or release with an exception), and keeps neither it nor
   * anything derived from it (slices, duplicates, NIO buffers) past the return. Bytes that must outlive the call are
   * copied out. Any access to the block after the return throws.
   */
  void read(ByteBuf block);

  /**
   * Lends {@code block} to {@code reader} and then releases it: this method takes the caller's one reference. It is
   * how a cache without a reusable view implements {@link BlockCache#read} over {@link BlockCache#getBlock}.
   *
   * @throws IllegalStateException after releasing every reference left, if the reader retained or released the block
   *     (a reader that kept it would otherwise read it after the call)
   */
  static void lend(ByteBuf block, BlockReader reader) {
    int left;
    try {
      reader.read(block);
    } finally {
      left = block.refCnt();
      if (left > 0) {
        block.release(left);
      }
    }
    // Outside the finally: an exception of the reader's own propagates rather than this one.
    if (left != 1) {
      throw new IllegalStateException("a scoped read's reader " + (left == 0 ? "released" : "retained")
          + " the block it was lent; it must do neither");
    }
  }
}
