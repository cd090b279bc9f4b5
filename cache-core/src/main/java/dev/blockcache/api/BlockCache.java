package dev.blockcache.api;

import io.netty.buffer.ByteBuf;
import java.util.Objects;

/**
 * A cache of file blocks, keyed by {@link BlockKey}.
 *
 * <h2>Ownership</h2>
 * <ul>
 *   <li>{@link #cacheBlock} never takes the caller's reference: it copies the block's readable bytes into memory the
 *       cache owns, and the caller releases its buffer as it would have without the call.</li>
 *   <li>{@link #handOver} always takes one reference of the caller's, whatever it returns: a caller that held no
 *       other must not touch, modify or release {@code block} after the call, and one that still reads it retains
 *       first. A cache may keep the buffer itself (no copy) until it evicts the block, so the caller hands over
 *       only buffers nobody writes to any more.</li>
 *   <li>{@link #getBlock} returns a read-only block of which the caller owns exactly one reference and must release
 *       it (once, with {@link ByteBuf#release()}); until then the bytes stay valid whatever the cache evicts, and
 *       after it the block must not be touched. Retaining or slicing follows netty's rules for that buffer.</li>
 *   <li>{@link #read} lends the block to a {@link BlockReader} for one call and releases it itself: the caller owns
 *       nothing, and the block cannot be retained, released or touched outside that call.</li>
 *   <li>Eviction, {@link #evictBlock}, {@link #evictBlocksByFile} and {@link #close} never invalidate a block that a
 *       caller still holds: its memory returns to the cache when the caller's last reference is released.</li>
 * </ul>
 *
 * <h2>Semantics</h2>
 * A key is cached at most once: caching a key that is present keeps the present block. Blocks are immutable once
 * cached. After {@link #close()}, gets miss and puts return {@link CacheResult#DISABLED}.
 *
 * <p>Thread-safety: every implementation is safe for concurrent use by any number of threads.
 */
public interface BlockCache extends AutoCloseable {

  /**
   * Caches a copy of {@code block}'s readable bytes under {@code key}; the caller keeps its reference to
   * {@code block} and its reader index is not moved.
   *
   * @return what happened; every outcome but {@link CacheResult#CACHED} and {@link CacheResult#ALREADY_CACHED} is
   *     counted as a failed insertion
   */
  CacheResult cacheBlock(BlockKey key, ByteBuf block, CacheOptions options);

  /**
   * Caches {@code block}'s readable bytes under {@code key}, taking over one reference of the caller's: whatever the
   * result, that reference is the cache's, and a caller that held no other must not touch, modify or release
   * {@code block} after the call. A cache may keep the buffer itself instead of copying it, so {@code block} must be
   * immutable from the call on (no holder writes to it). A caller that still reads the block hands over a retained
   * reference ({@code handOver(key, block.retain(), options)}) and releases its own when done.
   *
   * <p>This default is {@link #cacheBlock} followed by releasing the caller's reference; the caches override it with
   * a path that copies less.
   *
   * @return what happened, counted as {@link #cacheBlock} counts it; on every result the reference is the cache's
   */
  default CacheResult handOver(BlockKey key, ByteBuf block, CacheOptions options) {
    try {
      return cacheBlock(key, block, options);
    } finally {
      block.release();
    }
  }

  /**
   * Looks {@code key} up and counts the lookup as {@code options} say.
   *
   * @return the block, of which the caller owns one reference and must release it; or {@code null} on a miss
   */
  ByteBuf getBlock(BlockKey key, ReadOptions options);

  /**
   * {@link #getBlock(BlockKey, ReadOptions)} of the block at {@code offset} in {@code file}, without a key: looked up
   * and counted as that get does with {@code file.block(offset)}. A caller that keeps one {@link BlockFile} per open
   * file gets blocks this way with nothing allocated but what the cache hands out, whatever the JIT inlines: a key
   * built per lookup is allocated wherever the method it is passed to is not inlined into the caller.
   *
   * <p>This default is {@code getBlock(file.block(offset), options)}; the L1 and L2 caches override it with a path
   * that builds no key.
   *
   * @return the block, of which the caller owns one reference and must release it; or {@code null} on a miss
   * @throws IllegalArgumentException if {@code offset} is negative
   */
  default ByteBuf getBlock(BlockFile file, long offset, ReadOptions options) {
    return getBlock(Objects.requireNonNull(file, "file").block(offset), options);
  }

  /**
   * Looks {@code key} up, counted as {@link #getBlock} counts it, and on a hit lends the block to {@code reader} for
   * the duration of that call: the cache keeps ownership and releases the block when the reader returns, so the caller
   * releases nothing. The block is valid only inside {@link BlockReader#read}; retaining or releasing it there, or
   * touching it after the call, throws (see {@link BlockReader}).
   *
   * <p>This default is {@link #getBlock} followed by {@link BlockReader#lend}; the L1 caches override it with a path
   * that allocates nothing.
   *
   * @return whether the key was cached (and the reader called)
   * @throws IllegalStateException if the reader retained or released the block
   */
  default boolean read(BlockKey key, ReadOptions options, BlockReader reader) {
    ByteBuf block = getBlock(key, options);
    if (block == null) {
      return false;
    }
    BlockReader.lend(block, reader);
    return true;
  }

  /**
   * The scoped read ({@link #read(BlockKey, ReadOptions, BlockReader)}) of the block at {@code offset} in
   * {@code file}, without a key: looked up, counted, lent and released as that read does with
   * {@code file.block(offset)}. A caller that keeps one {@link BlockFile} per open file reads this way with nothing
   * allocated, whatever the JIT inlines: a key built per lookup is allocated wherever the method it is passed to is
   * not inlined into the caller.
   *
   * <p>This default is {@code read(file.block(offset), options, reader)}; the L1 and L2 caches override it with a path
   * that builds no key.
   *
   * @return whether the block was cached (and the reader called)
   * @throws IllegalArgumentException if {@code offset} is negative
   * @throws IllegalStateException if the reader retained or released the block
   */
  default boolean read(BlockFile file, long offset, ReadOptions options, BlockReader reader) {
    return read(Objects.requireNonNull(file, "file").block(offset), options, reader);
  }

  /**
   * Removes {@code key}; a caller holding the block keeps it valid until it releases it.
   *
   * @return whether a block was removed
   */
  boolean evictBlock(BlockKey key);

  /**
   * Removes every block of {@code file} (for example when the file is deleted after a compaction), at a cost
   * proportional to the number of blocks of that file. Blocks of the file cached concurrently with the call may
   * survive it.
   *
   * @return the number of blocks removed
   */
  int evictBlocksByFile(String file);

  /** A snapshot of this cache's counters. */
  CacheStats stats();

  /** The configured capacity in bytes. */
  long capacity();

  /** Bytes in use, as {@link CacheStats#size()} accounts them. */
  long size();

  /** {@code capacity() - size()}, never negative. */
  default long freeSize() {
    return Math.max(0, capacity() - size());
  }

  /** The number of cached blocks. */
  long blockCount();

  /**
   * Stops the cache's threads and drops every cached block; blocks that callers still hold stay valid until released.
   * Idempotent.
   */
  @Override
  void close();
}
