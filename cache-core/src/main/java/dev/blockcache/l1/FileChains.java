package dev.blockcache.l1;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The blocks of an L1 cache per file, so that evicting the blocks of one file costs what that file has cached instead
 * of a scan of the whole cache. Each file's blocks form an intrusive doubly-linked chain through the
 * {@link ChainedBlock}s themselves: no object per cached block, one small object per file.
 *
 * <p>Invariant: a block is in its file's chain from when its cache links it (after publishing it, unless it was
 * dropped first) until it is dropped or its chain is taken by {@link #takeLocked}; a file whose chain becomes empty
 * is dropped.
 *
 * <p>Thread-safety: not thread-safe; the owning cache holds one lock of its own around every call (hence the
 * {@code Locked} suffix) and around every access to a block's chain fields.
 */
public final class FileChains {
  /** The head of one file's chain. */
  private static final class Chain {
    ChainedBlock head;
  }

  private final HashMap<String, Chain> chains = new HashMap<>();

  /** Links {@code b} at the head of its file's chain, unless it was dropped (or is chained) already. */
  public void linkLocked(ChainedBlock b) {
    if (b.dropped || b.chained) {
      return;
    }
    Chain chain = chains.computeIfAbsent(b.file(), file -> new Chain());
    b.filePrev = null;
    b.fileNext = chain.head;
    if (chain.head != null) {
      chain.head.filePrev = b;
    }
    chain.head = b;
    b.chained = true;
  }

  /** Marks {@code b} dropped by its cache and unlinks it from its file's chain if it is in it. */
  public void dropLocked(ChainedBlock b) {
    b.dropped = true;
    if (!b.chained) {
      return;
    }
    if (b.filePrev != null) {
      b.filePrev.fileNext = b.fileNext;
    } else {
      Chain chain = chains.get(b.file());
      chain.head = b.fileNext;
      if (chain.head == null) {
        chains.remove(b.file());
      }
    }
    if (b.fileNext != null) {
      b.fileNext.filePrev = b.filePrev;
    }
    b.fileNext = null;
    b.filePrev = null;
    b.chained = false;
  }

  /**
   * Takes the whole chain of {@code file} out of the index and returns its blocks (empty if none); the caller then
   * removes them from its map and drops them.
   */
  public List<ChainedBlock> takeLocked(String file) {
    Chain chain = chains.remove(file);
    List<ChainedBlock> blocks = new ArrayList<>();
    if (chain == null) {
      return blocks;
    }
    ChainedBlock b = chain.head;
    while (b != null) {
      ChainedBlock next = b.fileNext;
      b.fileNext = null;
      b.filePrev = null;
      b.chained = false;
      blocks.add(b);
      b = next;
    }
    return blocks;
  }

  /** The number of files with at least one chained block. */
  public int fileCountLocked() {
    return chains.size();
  }

  /** Unchains every block. */
  public void clearLocked() {
    for (String file : List.copyOf(chains.keySet())) {
      takeLocked(file);
    }
  }
}
