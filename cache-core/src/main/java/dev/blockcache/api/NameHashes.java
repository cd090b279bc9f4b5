package dev.blockcache.api;

/**
 * A small direct-mapped memo of {@link NameHash#of} by name, so that {@link BlockKey#of} built per lookup from an
 * open file's name (the way a storage engine's reader builds it) costs a table read and a {@code String.equals}
 * instead of a pass over the name's chars.
 *
 * <p>Slots are chosen by {@code String.hashCode()}, which a {@code String} caches in itself; a slot holds the last
 * name hashed there, so names that collide simply replace each other and hash again. Entries are immutable objects
 * with final fields, written to the table without a lock: a reader sees either a complete entry or an older one,
 * and an entry is used only if its name equals the name asked for, so a race can cost a recomputation, never a wrong
 * hash. The table keeps at most {@link #SLOTS} names reachable (a few hundred KiB at worst).
 *
 * <p>Thread-safety: safe for concurrent use, racy by design as described.
 */
final class NameHashes {
  /** Slots in the memo: a power of two, several times the files a RegionServer reads at once. */
  private static final int SLOTS = 4096;

  private static final Entry[] TABLE = new Entry[SLOTS];

  private NameHashes() {}

  /** One name and its hash. Immutable: safe to publish through the racy table. */
  private static final class Entry {
    final String name;
    final long hash;

    Entry(String name, long hash) {
      this.name = name;
      this.hash = hash;
    }
  }

  /**
   * {@link NameHash#of}{@code (name)}, from the memo when the name was hashed lately.
   *
   * @throws IllegalArgumentException if {@code name} has no UTF-8 form
   */
  static long of(String name) {
    int slot = name.hashCode() & (SLOTS - 1);
    Entry entry = TABLE[slot];
    if (entry != null && entry.name.equals(name)) {
      return entry.hash;
    }
    long hash = NameHash.of(name);
    TABLE[slot] = new Entry(name, hash);
    return hash;
  }
}
