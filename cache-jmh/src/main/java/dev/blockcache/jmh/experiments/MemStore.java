package dev.blockcache.jmh.experiments;

import dev.blockcache.minidb.BlockFileLayout;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Experiment 4's stand-in for HBase's memstore: where an update goes. As in HBase, an update never touches the block
 * cache (HBase writes the WAL and the memstore; blocks are cached only when read); a read looks up the block file
 * through the cache as usual and then takes the memstore's newer copy of the row if it has one.
 *
 * <p>Deliberate simplifications, stated in the experiment's report: there is no WAL (an update is a 1 KB copy into a
 * map, so update-only throughput says nothing about HBase's write path), and a "flush" every {@link #FLUSH_PUTS}
 * updates discards the rows instead of writing a new block file (the experiment never checks values, and a flushed
 * file would add block reads the published runs also had only through compactions). As in HBase, where every update
 * adds a cell and the memstore flushes by size, the flush counts updates, not distinct rows: a dataset of few hot
 * rows flushes as often as a large one, so update-only costs the same on both datasets.
 *
 * <p>Thread-safety: safe for concurrent use; a flush racing with a put may drop that put, as a discard-flush may.
 */
final class MemStore {
  /** Updates between flushes: 16 MiB of 1 KB rows, bounded so that a long run does not grow the heap. */
  static final int FLUSH_PUTS = 16_384;

  private final ConcurrentHashMap<Long, byte[]> rows = new ConcurrentHashMap<>();
  private final AtomicLong puts = new AtomicLong();

  /** Stores a copy of {@code row} as the newest version of {@code rowId}. */
  void put(long rowId, byte[] row) {
    rows.put(rowId, row.clone());
    if (puts.incrementAndGet() % FLUSH_PUTS == 0) {
      rows.clear();
    }
  }

  /** Copies the newest version of {@code rowId} over {@code dest} if this memstore has one. */
  boolean overlay(long rowId, byte[] dest) {
    byte[] newer = rows.get(rowId);
    if (newer == null) {
      return false;
    }
    System.arraycopy(newer, 0, dest, 0, BlockFileLayout.ROW_SIZE);
    return true;
  }
}
