package dev.blockcache.bucket.write;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.policy.Admission;
import dev.blockcache.bucket.stats.IoErrorTolerance;
import io.netty.buffer.ByteBuf;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The insert path of a {@link BucketCache}: {@code cacheBlock} and {@code handOver} from their argument checks to the
 * block in a slot or waiting for its writer.
 *
 * <h2>Steps</h2>
 * <ol>
 *   <li><b>Refusal.</b> A closed cache or one disabled by IO errors, a key whose file name does not fit the slot
 *       header, a block larger than the largest item or than an index entry records (8 MiB - 1 with its header),
 *       or a key already in a slot (an access for the policy, as a get is) ends the call.</li>
 *   <li><b>Admission.</b> The {@link Admission} decides, and under tinylfu takes the block's slot (evicting the block
 *       it displaces): the block holds that slot from here on, and every later step that does not publish it gives
 *       it back.</li>
 *   <li><b>Copy.</b> Where the block goes is the {@link CopyPath}: into a slot on the caller's thread
 *       ({@link InlineWriter}), or to the heap (or, for {@code handOver}, the caller's buffer itself) in the
 *       {@link RamCache} and the queue of its writer in the {@link WriterPipeline}, with its slot if it has one.</li>
 *   <li><b>Count.</b> A failed result is counted as a failed insertion; a declined admission is counted by the
 *       admission instead.</li>
 * </ol>
 *
 * <p>Ownership: {@link #cacheBlock} only reads the caller's buffer (the caller keeps its reference);
 * {@link #handOver} takes the caller's reference whatever it returns and releases it, now or once the block is in its
 * slot and no get reads it.
 *
 * <p>Thread-safety: safe for concurrent use; holds no mutable state of its own (its parts are thread-safe).
 */
public final class BlockInserter {
  private final BooleanSupplier closed;
  private final IoErrorTolerance ioErrors;
  /** Most stored bytes (header and block) of a block: the largest item, at most what an index entry records. */
  private final long maxItemSize;
  private final BlockIndex index;
  /** Whether a block not yet cached may enter (the eviction policy's admission and the write budget). */
  private final Admission admission;
  /** Where {@code cacheBlock}'s copy goes: see {@link CopyPath}. */
  private final CopyPath copies;
  /** Writes on the calling thread (memory engines), or null: every block is queued for the writers. */
  private final InlineWriter inline;
  private final RamCache ramCache;
  private final WriterPipeline pipeline;
  private final FailedInsertion failed;

  /**
   * An insert path for one cache: {@code closed} tells whether that cache is closed; {@code inline} is null exactly
   * when {@code copies} is {@link CopyPath#QUEUED}; {@code failed} counts each failed insertion.
   */
  public BlockInserter(BooleanSupplier closed, IoErrorTolerance ioErrors, long maxItemSize, BlockIndex index,
      Admission admission, CopyPath copies, InlineWriter inline, RamCache ramCache, WriterPipeline pipeline,
      FailedInsertion failed) {
    if ((copies == CopyPath.QUEUED) != (inline == null)) {
      throw new IllegalArgumentException("an inline writer is needed for " + copies + " and only for it");
    }
    this.closed = closed;
    this.ioErrors = ioErrors;
    this.maxItemSize = maxItemSize;
    this.index = index;
    this.admission = admission;
    this.copies = copies;
    this.inline = inline;
    this.ramCache = ramCache;
    this.pipeline = pipeline;
    this.failed = failed;
  }

  /** {@link BucketCache#cacheBlock(BlockKey, ByteBuf, CacheOptions, QueueWait)}: the caller keeps {@code block}. */
  public CacheResult cacheBlock(BlockKey key, ByteBuf block, CacheOptions options, QueueWait wait) {
    checkInsert(key, block, options, wait);
    CacheResult result = refusal(key, block);
    if (result != null) {
      return counted(result);
    }
    int stored = storedLength(key, block);
    long slot = admission.admit(key, stored);
    result = Admission.refusal(slot);
    if (result == null) {
      result = intoSlotNow(key, block, options, slot, stored);
    }
    if (result == null) {
      result = enqueue(key, WaitingBlock.copyOf(block, options.category()), options, wait, slot, stored);
    }
    return counted(result);
  }

  /**
   * {@link BucketCache#handOver(BlockKey, ByteBuf, CacheOptions, QueueWait)}: whatever the result (and also when an
   * argument is null), this path owns {@code block}'s reference from the call on and releases it.
   */
  public CacheResult handOver(BlockKey key, ByteBuf block, CacheOptions options, QueueWait wait) {
    Objects.requireNonNull(block, "block");
    try {
      checkInsert(key, block, options, wait);
    } catch (NullPointerException e) {
      block.release();
      throw e;
    }
    CacheResult result = refusal(key, block);
    if (result == null) {
      int stored = storedLength(key, block);
      long slot = admission.admit(key, stored);
      result = Admission.refusal(slot);
      if (result == null) {
        result = intoSlotNow(key, block, options, slot, stored);
      }
      if (result == null) {
        return counted(enqueue(key, WaitingBlock.takeOver(block, options.category()), options, wait, slot, stored));
      }
    }
    block.release(); // refused, or copied into its slot on this thread
    return counted(result);
  }

  /**
   * The {@link CopyPath}'s step on the caller's thread: copies {@code block} into a slot of {@code stored} bytes (the
   * one it was admitted with, {@code slot}; else any slot, evicting, for {@link CopyPath#SLOT}, or one free without
   * evicting for {@link CopyPath#FREE_SLOT}) and returns the result, or returns null when the block is to wait for a
   * writer instead (with its admitted slot, if any). The caller keeps {@code block}.
   */
  private CacheResult intoSlotNow(BlockKey key, ByteBuf block, CacheOptions options, long slot, int stored) {
    return switch (copies) {
      case SLOT -> slot >= 0 ? inline.writeAt(key, block, options, slot, stored)
          : inline.write(key, block, options, stored);
      case FREE_SLOT -> {
        if (ramCache.get(key) != null) {
          admission.giveBack(slot, stored);
          yield CacheResult.ALREADY_CACHED;
        }
        yield slot >= 0 ? inline.writeAt(key, block, options, slot, stored)
            : inline.writeIfFree(key, block, options, stored);
      }
      default -> null;
    };
  }

  private static void checkInsert(BlockKey key, ByteBuf block, CacheOptions options, QueueWait wait) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(block, "block");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(wait, "wait");
  }

  private CacheResult counted(CacheResult result) {
    if (result.isFailure()) {
      failed.count(result);
    }
    return result;
  }

  private static int storedLength(BlockKey key, ByteBuf block) {
    return BlockHeader.headerLength(key) + block.readableBytes();
  }

  /**
   * Why {@code block} cannot be cached under {@code key}, or null if it can be offered to the {@link Admission}. A key
   * already in a slot counts as an access for the eviction policy, as a get would (HBase's caches do the same on a
   * repeated insert).
   */
  private CacheResult refusal(BlockKey key, ByteBuf block) {
    if (closed.getAsBoolean()) {
      return CacheResult.DISABLED;
    }
    if (ioErrors.disabled()) {
      ioErrors.droppedPut();
      return CacheResult.DISABLED;
    }
    if (!BlockHeader.nameFits(key)) {
      return CacheResult.TOO_LARGE; // the key's file name does not fit the slot header
    }
    if ((long) BlockHeader.headerLength(key) + block.readableBytes() > maxItemSize) {
      return CacheResult.TOO_LARGE;
    }
    if (index.peek(key) != IndexEntry.ABSENT) {
      index.get(key); // an access for the policy, as a get is; an absent key is not counted (its miss was)
      return CacheResult.ALREADY_CACHED;
    }
    return null;
  }

  /**
   * Puts {@code bytes} in the RAM cache and queues it for its writer, with the slot of {@code stored} bytes it was
   * admitted with ({@code slot}, or {@link Admission#NO_SLOT}). On every result but {@link CacheResult#CACHED} the
   * pipeline's hold on {@code bytes} is dropped and the slot given back here; on CACHED its writer does both.
   */
  private CacheResult enqueue(BlockKey key, WaitingBlock bytes, CacheOptions options, QueueWait wait, long slot,
      int stored) {
    long slotEntry = slot >= 0 ? admission.slotEntry(slot, stored, options) : IndexEntry.ABSENT;
    PendingWrite write = new PendingWrite(key, bytes, options.priority(), slotEntry);
    CacheResult result = queued(write, wait);
    if (result != CacheResult.CACHED) {
      bytes.release();
      admission.giveBack(slot, stored);
    }
    return result;
  }

  private CacheResult queued(PendingWrite write, QueueWait wait) {
    if (ramCache.putIfAbsent(write) != null) {
      return CacheResult.ALREADY_CACHED;
    }
    // Looked at again after entering the RAM cache: a writer publishes a block in the index before it leaves the
    // RAM cache, so a block that left it between the first look and putIfAbsent is in the index now.
    if (index.peek(write.key()) != IndexEntry.ABSENT) {
      ramCache.remove(write);
      return CacheResult.ALREADY_CACHED;
    }
    if (!pipeline.submit(write, wait)) {
      ramCache.remove(write);
      return CacheResult.QUEUE_FULL;
    }
    return CacheResult.CACHED;
  }
}
