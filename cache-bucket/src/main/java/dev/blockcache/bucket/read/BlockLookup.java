package dev.blockcache.bucket.read;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockReader;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.write.PendingWrite;
import dev.blockcache.bucket.write.RamCache;
import io.netty.buffer.ByteBuf;

/**
 * A get's way through the L2: the RAM cache of blocks waiting for a writer, then the index, then the slot.
 *
 * <h2>Design notes</h2>
 * <ul>
 *   <li><b>Order.</b> The RAM cache is looked at before the index: a writer publishes a block in the index before it
 *       takes the block out of the RAM cache, so a block that is in neither when looked for in this order was really
 *       not cached. (The other order misses a block whose writer publishes and removes between the two looks.)</li>
 *   <li><b>The key's parts, not the key.</b> Both methods take the file, offset and hashes of the key rather than the
 *       {@link BlockKey}. A key passed to a method that the JIT compiles out of line cannot be scalar-replaced, so a
 *       key that a reader builds per lookup would be allocated on every get; with the parts, the caller's
 *       {@code getBlock} stays small enough to be inlined and the key never leaves it. A key object is made here only
 *       where a map or an error path needs one: when a block waits in the RAM cache, and on engines that are not
 *       memory (where a read costs far more than the key).</li>
 * </ul>
 *
 * <p>Thread-safety: safe for concurrent use; it keeps no state of its own.
 */
public final class BlockLookup {
  private final RamCache ramCache;
  private final BlockIndex index;
  private final SlotReader reader;

  public BlockLookup(RamCache ramCache, BlockIndex index, SlotReader reader) {
    this.ramCache = ramCache;
    this.index = index;
    this.reader = reader;
  }

  /**
   * The block of the key of {@code file} and {@code offset} (whose {@link BlockKey#fileHash()} and
   * {@link BlockKey#hash64()} are given), or null.
   *
   * @return a block of which the caller owns one reference and must release it, or null
   */
  public ByteBuf find(String file, long offset, long fileHash, long hash64) {
    PendingWrite waiting = ramCache.isEmpty() ? null : ramCache.get(BlockKey.of(file, offset));
    ByteBuf view = waiting == null ? null : waiting.block().tryView();
    if (view != null) {
      return view; // null also when its writer let go of it just now, after publishing it in the index
    }
    int segment = index.segmentIndex(fileHash, hash64);
    long fingerprint = BlockIndex.fingerprint(fileHash, hash64);
    long entry = index.get(segment, fingerprint);
    if (entry == IndexEntry.ABSENT) {
      return null;
    }
    return reader.readsSlots() ? reader.readSlot(entry, segment, fingerprint, file, offset)
        : reader.readVerified(BlockKey.of(file, offset), entry);
  }

  /**
   * As {@link #find}, lending the block to {@code blockReader} for one call instead of returning it.
   *
   * @return whether the block was found and lent
   */
  public boolean lend(String file, long offset, long fileHash, long hash64, BlockReader blockReader) {
    PendingWrite waiting = ramCache.isEmpty() ? null : ramCache.get(BlockKey.of(file, offset));
    if (waiting != null && waiting.block().tryRead(blockReader)) {
      return true; // else its writer let go of it just now, after publishing it in the index
    }
    int segment = index.segmentIndex(fileHash, hash64);
    long fingerprint = BlockIndex.fingerprint(fileHash, hash64);
    long entry = index.get(segment, fingerprint);
    if (entry == IndexEntry.ABSENT) {
      return false;
    }
    return reader.lendsSlots() ? reader.lendSlot(entry, segment, fingerprint, file, offset, blockReader)
        : reader.lendRead(BlockKey.of(file, offset), entry, blockReader);
  }
}
