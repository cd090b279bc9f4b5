package dev.blockcache.l1.lru;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The entries of an {@link LruBlockCache} per file, so that evicting the blocks of one file costs what that file has
 * cached instead of a scan of the whole cache. Each file's entries form an intrusive doubly-linked chain through
 * {@link LruEntry#fileNext} and {@link LruEntry#filePrev}: no object per cached block, only one small object per
 * file.
 *
 * <p>Invariant: an entry is in its file's chain from when it is linked into its priority list until it is
 * unlinked after its removal (or its chain is taken by {@link #takeLocked}); a file whose chain becomes empty is
 * dropped.
 *
 * <p>Thread-safety: not thread-safe; every method must be called with the owning cache's list lock held.
 */
final class FileChains {
  /** The head of one file's chain. */
  private static final class Chain {
    LruEntry head;
  }

  private final HashMap<String, Chain> chains = new HashMap<>();

  /** Links {@code e} at the head of its file's chain. */
  void linkLocked(LruEntry e) {
    Chain chain = chains.computeIfAbsent(e.key.file(), file -> new Chain());
    e.filePrev = null;
    e.fileNext = chain.head;
    if (chain.head != null) {
      chain.head.filePrev = e;
    }
    chain.head = e;
    e.inFileChain = true;
  }

  /** Unlinks {@code e} from its file's chain if it is in it; a no-op otherwise. */
  void unlinkLocked(LruEntry e) {
    if (!e.inFileChain) {
      return;
    }
    if (e.filePrev != null) {
      e.filePrev.fileNext = e.fileNext;
    } else {
      Chain chain = chains.get(e.key.file());
      chain.head = e.fileNext;
      if (chain.head == null) {
        chains.remove(e.key.file());
      }
    }
    if (e.fileNext != null) {
      e.fileNext.filePrev = e.filePrev;
    }
    e.fileNext = null;
    e.filePrev = null;
    e.inFileChain = false;
  }

  /** Takes the whole chain of {@code file} out of the index and returns its entries (empty if none). */
  List<LruEntry> takeLocked(String file) {
    Chain chain = chains.remove(file);
    List<LruEntry> entries = new ArrayList<>();
    if (chain == null) {
      return entries;
    }
    LruEntry e = chain.head;
    while (e != null) {
      LruEntry next = e.fileNext;
      e.fileNext = null;
      e.filePrev = null;
      e.inFileChain = false;
      entries.add(e);
      e = next;
    }
    return entries;
  }

  /** The number of files with at least one chained entry. */
  int fileCountLocked() {
    return chains.size();
  }

  void clearLocked() {
    for (String file : List.copyOf(chains.keySet())) {
      takeLocked(file);
    }
  }
}
