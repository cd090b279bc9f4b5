package dev.blockcache.l1;

import dev.blockcache.api.BlockKey;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The keys cached per file, so that evicting the blocks of one file costs what that file has cached instead of a
 * scan of the whole cache.
 *
 * <p>Invariant: a key is in the set of its file from just after its block is cached until just after the block is
 * removed; a file whose set becomes empty is dropped. The per-file sets are updated inside
 * {@link ConcurrentHashMap#compute} so that an add and the removal of the last key of a file cannot lose the add.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class FileIndex {
  private final ConcurrentHashMap<String, Set<BlockKey>> keysByFile = new ConcurrentHashMap<>();

  /** Records that {@code key} is cached. */
  public void add(BlockKey key) {
    keysByFile.compute(key.file(), (file, keys) -> {
      Set<BlockKey> set = keys != null ? keys : ConcurrentHashMap.newKeySet();
      set.add(key);
      return set;
    });
  }

  /** Records that {@code key} is no longer cached. */
  public void remove(BlockKey key) {
    keysByFile.computeIfPresent(key.file(), (file, keys) -> {
      keys.remove(key);
      return keys.isEmpty() ? null : keys;
    });
  }

  /** Takes every key recorded for {@code file} out of the index and returns them (empty if none). */
  public Set<BlockKey> removeFile(String file) {
    Set<BlockKey> keys = keysByFile.remove(file);
    return keys != null ? keys : Collections.emptySet();
  }

  /** The number of files with at least one cached block. */
  public int fileCount() {
    return keysByFile.size();
  }

  /** Drops everything. */
  public void clear() {
    keysByFile.clear();
  }
}
