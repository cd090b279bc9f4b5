package dev.blockcache.bucket.write;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.policy.SpaceReclaimer;
import dev.blockcache.bucket.slot.ResidencyListener;
import dev.blockcache.bucket.slot.SlotGuard;
import dev.blockcache.bucket.stats.BucketCounters;
import dev.blockcache.bucket.stats.SlotFaults;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a writer thread does with each waiting block: take the slot the block was admitted with (tinylfu: see
 * {@link SpaceReclaimer#admit}), or allocate one (evicting if needed: the hbase policy), write header and block to the
 * engine, publish the slot in the index, and take the block out of the RAM cache. A block that is not published (it
 * was withdrawn, the cache was closed or disabled, the write failed or threw) gives its slot back.
 *
 * <h2>Publication order</h2>
 * The slot is written completely before the index maps the key to it, so a reader that finds the key in the index
 * reads a finished slot. An eviction ({@code evictBlock}, {@code evictBlocksByFile}) that took the block out of
 * the RAM cache withdrew it, and a withdrawn block is not published (see {@link PendingWrite#publishIn}). A block
 * taken out of the RAM cache after its publish is in the index, and whoever took it out removes it there: the
 * evictions look in the index after withdrawing, and {@code close} clears the index once the writers have stopped.
 * The writer then leaves the entry alone, so that the eviction finds and counts it (had the writer taken it back
 * out, {@code evictBlocksByFile} would have counted the block neither as waiting nor as indexed). Either way an
 * eviction that raced with the write wins. A slot that ends up unpublished goes back through the pin table, never
 * straight to the allocator: a reader may have pinned the offset from an older entry.
 *
 * <h2>Holds</h2>
 * The slot is pinned through the {@link SlotGuard} while it is written, so a concurrent close cannot release the
 * engine under the write (a write after close finds the guard closed and drops the block). Each block's bytes are
 * held by the pipeline until {@link #write} is done with it; then the writer drops that hold (see
 * {@link dev.blockcache.bucket.write.WaitingBlock}), which releases a handed-over buffer once no get still reads it.
 *
 * <p>Thread-safety: called by every writer thread concurrently; holds no mutable state.
 */
public final class SlotWriter implements BlockWriter {
  private static final Logger LOG = LoggerFactory.getLogger(SlotWriter.class);

  private final SlotGuard slots;
  private final IoEngine engine;
  private final SpaceReclaimer reclaimer;
  private final BlockIndex index;
  private final RamCache ramCache;
  private final BucketCounters counters;
  private final SlotFaults faults;
  private final FailedInsertion failed;
  private final ResidencyListener residency;

  public SlotWriter(SlotGuard slots, SpaceReclaimer reclaimer, BlockIndex index, RamCache ramCache, BucketCounters counters,
      SlotFaults faults, FailedInsertion failed, ResidencyListener residency) {
    this.slots = slots;
    this.engine = slots.engine();
    this.reclaimer = reclaimer;
    this.index = index;
    this.ramCache = ramCache;
    this.counters = counters;
    this.faults = faults;
    this.failed = failed;
    this.residency = residency;
  }

  /** Writes each block of {@code batch} and then drops the pipeline's hold on its bytes, whatever happened to it. */
  @Override
  public void write(List<PendingWrite> batch) {
    for (PendingWrite w : batch) {
      try {
        writeOne(w);
      } catch (RuntimeException | InternalError e) {
        // InternalError: an unsafe memory access fault an engine failed to map to an IOException. The block is
        // dropped and the writer thread lives on; one thread's death would stall its queue for good.
        ramCache.remove(w);
        failed.count(CacheResult.NO_SPACE);
        LOG.error("L2 writer dropped block {}", w.key(), e);
      } finally {
        w.block().release();
      }
    }
  }

  private void writeOne(PendingWrite w) {
    int stored = BlockHeader.headerLength(w.key()) + w.block().length();
    long admitted = w.slotEntry();
    if (ramCache.get(w.key()) != w) {
      freeAdmitted(admitted); // withdrawn by an eviction or close
      return;
    }
    if (faults.disabled()) {
      ramCache.remove(w);
      freeAdmitted(admitted);
      faults.droppedPut();
      return;
    }
    long offset = admitted != IndexEntry.ABSENT ? IndexEntry.offset(admitted) : reclaimer.allocateReclaiming(stored);
    if (offset < 0) {
      ramCache.remove(w);
      failed.count(CacheResult.NO_SPACE);
      return;
    }
    if (!slots.pin(offset)) { // closed: the engine may be gone
      ramCache.remove(w);
      slots.free(offset, stored);
      return;
    }
    try {
      publish(w, offset, stored, admitted);
    } finally {
      slots.unpin(offset);
    }
  }

  /** Frees the slot a block was admitted with ({@code admitted}, its index entry), if any, unwritten. */
  private void freeAdmitted(long admitted) {
    if (admitted != IndexEntry.ABSENT) {
      slots.free(IndexEntry.offset(admitted), IndexEntry.length(admitted));
    }
  }

  /**
   * Writes the pinned slot and maps the key to it ({@code admitted}, the entry made at admission, or a new one for a
   * slot this writer allocated), or frees the slot again, also when the write throws. The residency record is made
   * before the publish, so that an eviction of the published entry always finds it.
   */
  private void publish(PendingWrite w, long offset, int stored, long admitted) {
    long entry = admitted != IndexEntry.ABSENT ? admitted
        : reclaimer.entry(offset, stored, w.priority(), w.block().category());
    boolean recorded = false;
    boolean mapped = false;
    try {
      if (writeSlot(w, offset, stored)) {
        residency.stored(w.key(), entry);
        recorded = true;
        mapped = w.publishIn(index, entry);
      }
      if (mapped) {
        counters.blockAdded(w.block().category());
        // False if an eviction or close took the block out of the RAM cache after the publish: it removes the entry.
        ramCache.remove(w);
      }
    } finally {
      if (!mapped) {
        if (recorded) {
          residency.removed(entry);
        }
        ramCache.remove(w);
        slots.free(offset, stored);
      }
    }
  }

  private boolean writeSlot(PendingWrite w, long offset, int stored) {
    try {
      if (engine.isMemory()) {
        writeInPlace(engine, w.key(), w.block().category(), w.block().bytes(), offset, stored);
      } else {
        writeStaged(engine, w, offset, stored);
      }
      faults.ioSucceeded();
      return true;
    } catch (IOException e) {
      faults.ioFailed("write", stored, offset, e);
      failed.count(CacheResult.NO_SPACE);
      return false;
    }
  }

  /**
   * Writes a memory-engine slot of {@code stored} bytes ({@link BlockHeader#headerLength} of {@code key} plus the
   * block's readable bytes) at {@code offset}: the header for {@code key}, then {@code block}'s readable bytes, with
   * CRC32C 0 (see {@link BlockHeader}: nothing verifies it there), both straight into the engine's memory: one copy
   * of the block. Neither buffer's indexes nor reference count change.
   */
  public static void writeInPlace(IoEngine engine, BlockKey key, BlockCategory category, ByteBuf block, long offset,
      int stored) {
    int blockLength = block.readableBytes();
    int headerLength = stored - blockLength;
    ByteBuf slot = engine.segmentForWrite(offset, stored);
    int at = (int) (offset % engine.segmentSize());
    BlockHeader.putHeader(slot, at, key, headerLength - BlockHeader.FIXED_LENGTH, category, blockLength, 0);
    slot.setBytes(at + headerLength, block, block.readerIndex(), blockLength);
  }

  /**
   * Devices: header and block assembled in one pooled direct buffer, so the device sees one write (and O_DIRECT one
   * aligned range), with the block's CRC32C in the header.
   */
  private static void writeStaged(IoEngine engine, PendingWrite w, long offset, int stored) throws IOException {
    ByteBuf slot = ByteBufAllocator.DEFAULT.directBuffer(stored, stored);
    try { // the pipeline's hold keeps the block's bytes alive; their indexes do not move
      BlockHeader.write(slot, w.key(), w.block().category(), w.block().bytes(), w.block().crc32c());
      engine.write(offset, slot);
    } finally {
      slot.release();
    }
  }
}
