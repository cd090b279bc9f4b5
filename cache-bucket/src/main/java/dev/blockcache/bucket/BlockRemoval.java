package dev.blockcache.bucket;

import dev.blockcache.api.BlockKey;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.read.SlotEntries;
import dev.blockcache.bucket.read.SlotReader;
import dev.blockcache.bucket.slot.SlotRelease;
import dev.blockcache.bucket.write.PendingWrite;
import dev.blockcache.bucket.write.RamCache;
import java.util.Objects;

/**
 * Removes blocks on request (one key, one file, one range of a file), from the blocks waiting for a writer and from
 * the index, handing each removed slot to the release sink exactly once.
 *
 * <p>Thread-safety: safe for concurrent use; takes no lock of its own (the index's segment locks and the pending
 * writes' monitors, one at a time).
 */
final class BlockRemoval {
  private final RamCache ramCache;
  private final BlockIndex index;
  private final SlotRelease release;
  private final SlotReader reader;

  BlockRemoval(RamCache ramCache, BlockIndex index, SlotRelease release, SlotReader reader) {
    this.ramCache = ramCache;
    this.index = index;
    this.release = release;
    this.reader = reader;
  }

  /** Removes {@code key}'s block, waiting or in a slot; true if there was one. */
  boolean evictBlock(BlockKey key) {
    Objects.requireNonNull(key, "key");
    PendingWrite waiting = ramCache.remove(key);
    if (waiting != null) {
      waiting.withdraw();
    }
    long entry = index.peek(key);
    while (entry != IndexEntry.ABSENT) {
      if (index.remove(key, entry)) {
        release.removed.removed(entry);
        return true;
      }
      entry = index.peek(key);
    }
    return waiting != null;
  }

  /**
   * Removes every block of {@code file}, counting each once. A block whose writer published it but had not yet taken
   * it out of the RAM cache is in both; taken out of the RAM cache here, it counts only when the index removal below
   * finds it (its writer leaves the entry alone once it lost the block from the RAM cache). The index is swept after
   * the RAM cache, so it still holds every block published before its withdrawal.
   */
  int evictBlocksByFile(String file) {
    Objects.requireNonNull(file, "file");
    int waiting = ramCache.removeFile(file, PendingWrite::withdraw);
    return waiting + index.removeFile(file, release.removed);
  }

  /**
   * Removes {@code file}'s blocks at offsets in [{@code from}, {@code to}). Cost: the waiting blocks, plus the slots
   * of the file's index group, each of whose entries with the file's tag has its key read back from its slot.
   */
  int evictBlocksOfFile(String file, long from, long to) {
    Objects.requireNonNull(file, "file");
    int waiting = ramCache.removeRange(file, from, to, PendingWrite::withdraw);
    int[] removed = {0};
    SlotEntries.resolve(visitor -> index.forEachOfFile(file, visitor), reader, (block, entry) -> {
      BlockKey key = block.key();
      if (key.file().equals(file) && key.offset() >= from && key.offset() < to && evictBlock(key)) {
        removed[0]++;
      }
    });
    return waiting + removed[0];
  }
}
