package dev.blockcache.bucket;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheResult;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.write.BlockWriter;
import dev.blockcache.bucket.write.PendingWrite;
import dev.blockcache.stats.StatsRecorder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a writer thread does with each waiting block: allocate a slot (evicting if needed), write header and block to
 * the engine, publish the slot in the index, and take the block out of the RAM cache.
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
 * <p>Thread-safety: called by every writer thread concurrently; holds no state of its own.
 */
final class SlotWriter implements BlockWriter {
  private static final Logger LOG = LoggerFactory.getLogger(SlotWriter.class);

  private final BucketCacheParts parts;

  SlotWriter(BucketCacheParts parts) {
    this.parts = parts;
  }

  @Override
  public void write(List<PendingWrite> batch) {
    for (PendingWrite w : batch) {
      try {
        writeOne(w);
      } catch (RuntimeException | InternalError e) {
        // InternalError: an unsafe memory access fault an engine failed to map to an IOException. The block is
        // dropped and the writer thread lives on; one thread's death would stall its queue for good.
        parts.ramCache.remove(w);
        parts.fail(CacheResult.NO_SPACE);
        LOG.error("L2 writer dropped block {}", w.key(), e);
      }
    }
  }

  private void writeOne(PendingWrite w) {
    if (parts.ramCache.get(w.key()) != w) {
      return;
    }
    if (parts.ioErrors.disabled()) {
      parts.ramCache.remove(w);
      parts.ioErrors.droppedPut();
      return;
    }
    int stored = BlockHeader.headerLength(w.key()) + w.block().length();
    long offset = parts.reclaimer.allocateReclaiming(stored);
    if (offset < 0) {
      parts.ramCache.remove(w);
      parts.fail(CacheResult.NO_SPACE);
      return;
    }
    if (!writeSlot(w, offset, stored)) {
      parts.ramCache.remove(w);
      parts.pins.freeWhenUnpinned(offset, stored);
      return;
    }
    long entry = IndexEntry.pack(offset, stored, w.priority(), w.block().category());
    BlockIndex index = parts.index;
    if (!w.publishIn(index, entry)) {
      parts.ramCache.remove(w);
      parts.pins.freeWhenUnpinned(offset, stored);
      return;
    }
    parts.counters.blockAdded(w.block().category());
    // False if an eviction or close took the block out of the RAM cache after the publish: it removes the entry.
    parts.ramCache.remove(w);
  }

  private boolean writeSlot(PendingWrite w, long offset, int stored) {
    IoEngine engine = parts.engine;
    try {
      if (engine.isMemory()) {
        writeInPlace(engine, w, offset, stored);
      } else {
        writeStaged(engine, w, offset, stored);
      }
      parts.ioErrors.succeeded();
      return true;
    } catch (IOException e) {
      parts.counters.ioError();
      parts.ioErrors.failed(engine.spec(), e);
      parts.fail(CacheResult.NO_SPACE);
      parts.ioWarnings.warn("L2 write of {} bytes at offset {} failed: {}", stored, offset, e.toString());
      return false;
    }
  }

  /**
   * Memory engines: the header, then the block straight from its heap copy into the slot (one copy of the block),
   * with no checksum (see {@link BlockHeader}: nothing verifies it there).
   */
  private static void writeInPlace(IoEngine engine, PendingWrite w, long offset, int stored) {
    ByteBuf block = w.block().newView();
    try {
      writeInPlace(engine, w.key(), w.block().category(), block, offset, stored);
    } finally {
      block.release();
    }
  }

  /**
   * Writes a memory-engine slot of {@code stored} bytes ({@link BlockHeader#headerLength} of {@code key} plus the
   * block's readable bytes) at {@code offset}: the header for {@code key}, then {@code block}'s readable bytes, with
   * CRC32C 0, both straight into the engine's memory. Neither buffer's indexes nor reference count change.
   */
  static void writeInPlace(IoEngine engine, BlockKey key, BlockCategory category, ByteBuf block, long offset,
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
    ByteBuf block = w.block().newView();
    try {
      BlockHeader.write(slot, w.key(), w.block().category(), block, w.block().crc32c());
      engine.write(offset, slot);
    } finally {
      block.release();
      slot.release();
    }
  }
}
