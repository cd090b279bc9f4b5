package dev.blockcache.bucket.read;

import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.slot.CachedEntry;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A lazy, weakly consistent walk over the blocks in slots, for tools that list a cache's content (HBase's web UI
 * iterates its block cache). The index keeps only fingerprints, so the walk snapshots the index's entry words (8
 * bytes per block) and, as the caller advances, reads each block's key back from its slot header through
 * {@link SlotReader#entryAt}. A block evicted meanwhile is skipped; blocks cached after the snapshot, and blocks still
 * waiting for their writer, are not reported. On engines that are not memory every step is one device read of the
 * slot, so a caller that needs only a few entries should stop early.
 *
 * <p>Thread-safety: one walker per caller thread; the cache it walks may be used concurrently.
 */
public final class EntryWalker implements Iterator<CachedEntry> {
  private final SlotReader reader;
  private final long[] entries;
  private int next;
  private CachedEntry ahead;

  private EntryWalker(SlotReader reader, long[] entries) {
    this.reader = reader;
    this.entries = entries;
  }

  /** A walk over the entries {@code index} holds now, read back through {@code reader}. */
  public static EntryWalker of(BlockIndex index, SlotReader reader) {
    long[][] words = {new long[1024]};
    int[] count = {0};
    index.forEach((segment, fingerprint, entry) -> {
      if (count[0] == words[0].length) {
        words[0] = Arrays.copyOf(words[0], count[0] * 2);
      }
      words[0][count[0]++] = entry;
    });
    return new EntryWalker(reader, Arrays.copyOf(words[0], count[0]));
  }

  @Override
  public boolean hasNext() {
    while (ahead == null && next < entries.length) {
      long entry = entries[next++];
      if (entry != IndexEntry.ABSENT) {
        ahead = reader.entryAt(entry);
      }
    }
    return ahead != null;
  }

  @Override
  public CachedEntry next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    CachedEntry e = ahead;
    ahead = null;
    return e;
  }
}
