package dev.blockcache.bucket.read;

import dev.blockcache.bucket.index.EntryVisitor;
import dev.blockcache.bucket.slot.CachedEntry;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The blocks an index walk visits, each resolved to its full key by reading its slot's header. The walk's entries are
 * collected first and read afterwards, so no slot is read while the walk holds a segment lock.
 *
 * <p>Thread-safety: stateless; a walk sees the index weakly consistently, and an entry whose slot was evicted or
 * reused after the walk saw it is skipped.
 */
public final class SlotEntries {
  /** What is done with one resolved block. */
  @FunctionalInterface
  public interface Action {
    /**
     * One block.
     *
     * @param block the block read back from its slot header
     * @param entry the index entry that mapped its key to the slot
     */
    void accept(CachedEntry block, long entry);
  }

  private SlotEntries() {}

  /**
   * Runs {@code walk} with a visitor that collects entries, then resolves each through {@code reader} and hands the
   * ones whose slot still holds them to {@code action}: one slot read per entry on engines that are not memory.
   *
   * @return the number of entries resolved
   */
  public static int resolve(Consumer<EntryVisitor> walk, SlotReader reader, Action action) {
    long[][] entries = {new long[64]};
    int[] count = {0};
    walk.accept((segment, fingerprint, entry) -> {
      if (count[0] == entries[0].length) {
        entries[0] = Arrays.copyOf(entries[0], count[0] * 2);
      }
      entries[0][count[0]++] = entry;
    });
    int resolved = 0;
    for (int i = 0; i < count[0]; i++) {
      CachedEntry block = reader.entryAt(entries[0][i]);
      if (block != null) {
        action.accept(block, entries[0][i]);
        resolved++;
      }
    }
    return resolved;
  }
}
