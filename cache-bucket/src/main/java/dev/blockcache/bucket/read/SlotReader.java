package dev.blockcache.bucket.read;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.EntrySink;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.slot.CachedEntry;
import dev.blockcache.bucket.slot.SlotGuard;
import dev.blockcache.bucket.stats.IoErrorTolerance;
import dev.blockcache.bucket.stats.SlotFaults;
import dev.blockcache.buffer.BlockBuf;
import dev.blockcache.buffer.ScopedBlockView;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads a block from its slot: a zero-copy view for memory engines (the default), a heap copy when configured, or a
 * verified read into a pooled buffer for engines that are not memory.
 *
 * <h2>Slot pinning (memory engines)</h2>
 * <ol>
 *   <li>The caller found {@code entry} in the index.</li>
 *   <li>The reader pins the slot's offset, then checks that the cache is open and that the index still maps the key to
 *       the same slot. If not, it unpins and misses: the slot may have been freed before the pin.</li>
 *   <li>The pinned slot cannot return to the allocator (frees are deferred by the pin table), so the header is
 *       checked against the key and the block is handed out as a {@link BlockBuf} view whose token is the offset.</li>
 *   <li>The view's last release unpins the slot (the {@link SlotGuard} is its
 *       {@link dev.blockcache.buffer.ViewOwner}); a free deferred by an eviction in between happens then.</li>
 * </ol>
 * A scoped read ({@link #lendSlot}) pins the same way, lends the slot's bytes through the thread's reusable view for
 * the reader's call, and unpins when the call returns. Pins go through the {@link SlotGuard}, which refuses them once the cache is closed and releases the engine's
 * memory only once the cache is closed and no slot is pinned, whichever comes last.
 *
 * <p>Engines that are not memory are read into a buffer taken from a {@link ReadBufferPool} and checked (key and
 * CRC32C, the latter unless {@code hbase.bucketcache.checksum.verify} is false) after the read, and the index is
 * looked up again: a slot can only be rewritten after its entry left the index, so a read that still finds the entry
 * afterwards read one block whole, and one that does not is a miss. A slot reused during the read is thus detected
 * rather than prevented, with checksums on or off. A slot that fails the check while the index still maps the key to it is
 * corrupt: the entry is evicted, counted and logged (rate-limited), and the get misses. An IO error is counted,
 * reported to the {@link IoErrorTolerance} and also served as a miss; no exception reaches the caller. A block that
 * passes is handed out as a {@link BlockBuf} view of the buffer, whose last release gives the buffer back to the pool.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class SlotReader {
  private final SlotGuard slots;
  private final IoEngine engine;
  private final BlockIndex index;
  private final SlotFaults faults;
  /** Where a slot that failed its check while still mapped goes: removed from the index and freed. */
  private final EntrySink removed;
  private final boolean zeroCopy;
  private final boolean verifyChecksum;
  /** Buffers that gets on engines that are not memory read into; see {@link ReadBufferPool}. */
  private final ReadBufferPool readBuffers;

  public SlotReader(SlotGuard slots, BlockIndex index, ReadBufferPool readBuffers, SlotFaults faults, EntrySink removed,
      SlotReadPolicy policy) {
    this.slots = slots;
    this.engine = slots.engine();
    this.index = index;
    this.readBuffers = readBuffers;
    this.faults = faults;
    this.removed = removed;
    this.zeroCopy = policy.zeroCopy();
    this.verifyChecksum = policy.verifyChecksum();
  }

  /**
   * The block in {@code entry}'s slot, or null if the slot no longer holds {@code key}: {@link #readSlot} on a memory
   * engine, {@link #readVerified} on any other.
   *
   * @return a buffer of which the caller owns one reference and must release it, or null
   */
  ByteBuf read(BlockKey key, long entry) {
    if (!readsSlots()) {
      return readVerified(key, entry);
    }
    return readSlot(entry, index.segmentIndex(key), BlockIndex.fingerprint(key), key.file(), key.offset());
  }

  /** Whether gets read the engine's memory in place ({@link #readSlot}) rather than through {@link #readVerified}. */
  boolean readsSlots() {
    return engine.isMemory();
  }

  /**
   * Whether scoped reads lend the slot in place ({@link #lendSlot}) rather than a block read as {@link #read} reads it
   * ({@link #lendRead}): with zero copy, which only a memory engine has ({@link SlotReadPolicy}).
   */
  boolean lendsSlots() {
    return zeroCopy;
  }

  /**
   * {@link #read} from a memory engine, for the key known by its index {@code segment} and {@code fingerprint} (to
   * look it up again once the slot is pinned) and by its {@code file} and {@code keyOffset} (to check the slot's
   * header). It takes the key's parts rather than the key: a key passed to a method the JIT leaves out of line cannot
   * be scalar-replaced, so a key built per lookup would be allocated on every hit.
   *
   * @return a buffer of which the caller owns one reference and must release it, or null
   */
  ByteBuf readSlot(long entry, int segment, long fingerprint, String file, long keyOffset) {
    long offset = IndexEntry.offset(entry);
    if (!slots.pin(offset)) {
      return null;
    }
    boolean handedOut = false;
    try {
      long region = pinnedRegion(index.peek(segment, fingerprint), entry, file, keyOffset);
      if (region == NO_REGION) {
        return null;
      }
      ByteBuf slot = engine.segment(offset);
      int start = regionStart(region);
      int blockLength = regionLength(region);
      if (zeroCopy) {
        handedOut = true;
        return BlockBuf.of(slot, start, blockLength, slots, offset); // its last release unpins the slot
      }
      byte[] copy = new byte[blockLength];
      slot.getBytes(start, copy);
      return Unpooled.wrappedBuffer(copy).asReadOnly();
    } finally {
      if (!handedOut) {
        slots.unpin(offset);
      }
    }
  }

  /**
   * The block that {@code entry}'s slot holds, read back from its header, or null when the slot no longer holds the
   * entry the index maps its key to (evicted or reused since the entry was seen), or the cache is closed.
   */
  public CachedEntry entryAt(long entry) {
    long offset = IndexEntry.offset(entry);
    int stored = IndexEntry.length(entry);
    if (engine.isMemory()) {
      if (!slots.pin(offset)) {
        return null;
      }
      try {
        ByteBuf slot = engine.segment(offset);
        return entryIn(slot, (int) (offset % engine.segmentSize()), entry);
      } finally {
        slots.unpin(offset);
      }
    }
    if (slots.closed()) {
      return null;
    }
    ReadBufferPool.ReadBuffer taken = readBuffers.take(stored);
    try {
      engine.readInto(offset, taken.buffer(), stored);
      return entryIn(taken.buffer(), 0, entry);
    } catch (IOException | RuntimeException e) {
      return null; // a listing is best effort: reads that matter count and report their errors
    } finally {
      readBuffers.giveBack(taken);
    }
  }

  private CachedEntry entryIn(ByteBuf slot, int at, long entry) {
    if (slot.getInt(at + BlockHeader.MAGIC_OFFSET) != BlockHeader.MAGIC) {
      return null;
    }
    int nameLength = slot.getUnsignedShort(at + BlockHeader.NAME_LENGTH_OFFSET);
    if (BlockHeader.FIXED_LENGTH + nameLength > IndexEntry.length(entry)) {
      return null;
    }
    String file = slot.toString(at + BlockHeader.NAME_OFFSET, nameLength, StandardCharsets.UTF_8);
    long keyOffset = slot.getLong(at + BlockHeader.KEY_OFFSET_OFFSET);
    if (file.isEmpty() || keyOffset < 0) {
      return null;
    }
    BlockKey key = BlockKey.of(file, keyOffset);
    long now = index.peek(key);
    if (!sameSlot(now, entry)) {
      return null;
    }
    return new CachedEntry(key, IndexEntry.category(now), IndexEntry.priority(now), IndexEntry.length(now));
  }

  /**
   * Lends the block in {@code entry}'s slot to {@code reader} for one call, read as {@link #read} reads it (a copy or a
   * pooled buffer) and lent through {@link BlockReader#lend}, which releases it: for a cache without zero copy
   * ({@link #lendsSlots}). Ownership does not leave the cache.
   *
   * @return false, without calling the reader, if the slot no longer holds {@code key}
   */
  boolean lendRead(BlockKey key, long entry, BlockReader reader) {
    ByteBuf block = read(key, entry);
    if (block == null) {
      return false;
    }
    BlockReader.lend(block, reader);
    return true;
  }

  /**
   * Lends the block in {@code entry}'s slot of a zero-copy memory engine to {@code reader} for one call: the slot
   * stays pinned during the call and the reader gets the thread's reusable {@link ScopedBlockView} of it, so nothing
   * is allocated. Takes the key's parts as {@link #readSlot} does. Ownership does not leave the cache.
   *
   * @return false, without calling the reader, if the slot no longer holds the key
   */
  boolean lendSlot(long entry, int segment, long fingerprint, String file, long keyOffset,
      BlockReader reader) {
    long offset = IndexEntry.offset(entry);
    if (!slots.pin(offset)) {
      return false;
    }
    try {
      long region = pinnedRegion(index.peek(segment, fingerprint), entry, file, keyOffset);
      if (region == NO_REGION) {
        return false;
      }
      ScopedBlockView.read(engine.segment(offset), regionStart(region), regionLength(region), reader);
      return true;
    } finally {
      slots.unpin(offset);
    }
  }

  /** What {@link #pinnedRegion} returns when the slot does not hold the key (or the cache is closed). */
  private static final long NO_REGION = -1L;

  /**
   * Where the block of the key of {@code file} and {@code keyOffset} lies in its memory segment, checked against the
   * slot's header: the block's start in the segment in the high 32 bits and its length in the low 32 bits, or
   * {@link #NO_REGION}. The caller has pinned {@code entry}'s slot and then looked the key up again ({@code now}: a
   * slot freed before the pin no longer has the key's entry).
   */
  private long pinnedRegion(long now, long entry, String file, long keyOffset) {
    if (!sameSlot(now, entry)) {
      return NO_REGION;
    }
    long offset = IndexEntry.offset(entry);
    int stored = IndexEntry.length(entry);
    ByteBuf slot = engine.segment(offset);
    int at = (int) (offset % engine.segmentSize());
    int blockLength = slot.getInt(at + BlockHeader.LENGTH_OFFSET);
    int headerLength = BlockHeader.verifyKey(slot, at, file, keyOffset, blockLength);
    if (headerLength < 0 || headerLength + blockLength != stored) {
      faults.headerMismatch();
      return NO_REGION;
    }
    return (long) (at + headerLength) << 32 | blockLength;
  }

  private static int regionStart(long region) {
    return (int) (region >>> 32);
  }

  private static int regionLength(long region) {
    return (int) region;
  }

  private static boolean sameSlot(long a, long b) {
    return a != IndexEntry.ABSENT && IndexEntry.offset(a) == IndexEntry.offset(b)
        && IndexEntry.length(a) == IndexEntry.length(b);
  }

  /**
   * The block of {@code key} read from {@code entry}'s slot on an engine that is not memory, checked after the read;
   * null on any mismatch or error (see the class notes).
   *
   * @return a buffer of which the caller owns one reference and must release it, or null
   */
  ByteBuf readVerified(BlockKey key, long entry) {
    if (slots.closed()) {
      return null;
    }
    int stored = IndexEntry.length(entry);
    long offset = IndexEntry.offset(entry);
    ReadBufferPool.ReadBuffer taken = readBuffers.take(stored);
    ByteBuf slot = taken.buffer();
    try {
      engine.readInto(offset, slot, stored);
    } catch (IOException e) {
      readBuffers.giveBack(taken);
      faults.ioFailed("read", stored, offset, e);
      return null;
    } catch (RuntimeException e) {
      readBuffers.giveBack(taken);
      // Not the device: e.g. the engine closed under a racing get. A miss, and no IO-error window.
      faults.warn("L2 read of {} bytes at offset {} failed: {}", stored, offset, e.toString());
      return null;
    }
    faults.ioSucceeded();
    int blockLength = slot.getInt(BlockHeader.LENGTH_OFFSET);
    int headerLength = BlockHeader.verifyKey(slot, 0, key, blockLength);
    if (headerLength < 0 || headerLength + blockLength != stored) {
      readBuffers.giveBack(taken);
      faults.headerMismatch();
      evictIfStillMapped(key, entry, "header");
      return null;
    }
    if (verifyChecksum && !BlockHeader.verifyChecksumOwned(slot, 0, headerLength)) {
      readBuffers.giveBack(taken);
      faults.checksumMismatch();
      evictIfStillMapped(key, entry, "CRC32C");
      return null;
    }
    if (!sameSlot(index.peek(key), entry)) {
      // The entry left the index after the get found it, so the slot may have been freed and rewritten while it was
      // read: header and block can come from two different blocks, which the key check alone (checksums off) cannot
      // see. The index still mapping the key to this slot after the read means no writer had the slot during it.
      readBuffers.giveBack(taken);
      return null;
    }
    // The view's last release gives the buffer back to the pool (the ReadBuffer is the view's owner).
    return BlockBuf.of(slot, headerLength, blockLength, taken, 0);
  }

  /**
   * Evicts {@code key} if the index still maps it to the slot just read: then the slot itself is corrupt. If the
   * entry changed, a writer reused the slot during the read and nothing is wrong on the device.
   */
  private void evictIfStillMapped(BlockKey key, long entry, String check) {
    if (index.remove(key, entry)) {
      removed.removed(entry);
      faults.warn("L2 slot at offset {} ({} bytes) failed its {} check for {}: evicted, served as a miss",
          IndexEntry.offset(entry), IndexEntry.length(entry), check, key);
    }
  }

  /** Refuses new reads from pooled buffers; the engine itself is the {@link SlotGuard}'s to close. */
  public void close() {
    readBuffers.close();
  }
}
