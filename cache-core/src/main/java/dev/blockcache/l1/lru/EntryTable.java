package dev.blockcache.l1.lru;

import dev.blockcache.api.BlockKey;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * The index of an {@link LruBlockCache}: an open-addressing hash table from {@link BlockKey} to {@link LruEntry}, read
 * without locks and written under the cache's list lock.
 *
 * <h2>Design notes</h2>
 * A lookup of a cached block in a map of nodes loads the table slot, the node, then the entry, then the block's
 * bytes: each a dependent cache miss once the cache holds more blocks than the CPU caches do. This table keeps three
 * parallel arrays instead, so that a lookup loads the slot's tag, entry reference and block array (independent
 * loads), then the entry, which holds the key's offset and file reference itself ({@link LruEntry#hasKey}), and the
 * block's bytes at the same time: the array's address does not wait for the entry, so the two cache misses overlap.
 * <pre>
 *   slot i:   tags[i]    int     0 = empty; otherwise the upper 32 bits of the key's hash64 (0 mapped to 1)
 *             entries[i] ref     the entry, or null in a slot whose entry was removed (a tombstone: tag kept)
 *             blocks[i]  byte[]  the entry's array when its block spans all of it ({@link LruEntry#wholeArray}),
 *                                else null; null in a tombstone
 *   home slot of a key = tag &amp; mask; linear probing from there; a probe stops at the first empty slot
 * </pre>
 * A reader uses {@code blocks[i]} only after checking that it is the whole array of the entry it matched
 * ({@link LruEntry#newView(byte[])}), so a slot seen half rewritten can cost the overlap, never a wrong block.
 * The tag doubles as the home slot, so a rebuild moves entries by their tags without touching the entries.
 *
 * <p>Invariants: a slot once non-empty stays non-empty until the next rebuild (removal leaves a tombstone), so a probe
 * chain never breaks under a reader; fewer than 3/4 of the slots are non-empty, so every probe meets an empty slot.
 * An insert reuses the first tombstone on its probe chain. When the non-empty slots pass 3/4 the table is rebuilt into
 * new arrays (twice as many slots when more than half are live, else as many), which are published with one volatile
 * write; the old arrays are never written again.
 *
 * <p>Concurrency: readers ({@link #get}, {@link Slots#find}) take no lock: they read the current arrays once and
 * probe them; an entry and its array are published with release stores and read with acquire loads, so a reader sees
 * them fully constructed. A reader racing a writer may miss an entry being inserted or see one being removed, which is
 * a get ordered before that insert or removal. Writers ({@code ...Locked} methods) must hold the owning cache's list
 * lock; a slot's tag, entry and array may be seen half written by a reader, which is why a tag match is only a hint,
 * the entry's key decides, and the array is used only if it is that entry's own.
 *
 * <p>Heap: 12 bytes per slot (with compressed oops), 2 to 4 slots per entry: 24–48 bytes per cached block, against
 * 37–43 for a {@code ConcurrentHashMap}'s node and table share (which has no block reference).
 */
final class EntryTable {
  private static final VarHandle ENTRIES = MethodHandles.arrayElementVarHandle(LruEntry[].class);
  private static final VarHandle TAGS = MethodHandles.arrayElementVarHandle(int[].class);
  private static final VarHandle BLOCKS = MethodHandles.arrayElementVarHandle(byte[][].class);
  /** The largest table, in slots: the largest power of two an array can hold. */
  private static final int MAX_SLOTS = 1 << 30;
  /** The smallest table, in slots. */
  private static final int MIN_SLOTS = 16;

  /**
   * One generation of the table: never written once a rebuild has replaced it. A reader that wants the block array
   * beside the entry takes the current generation ({@link #slots()}), finds the key's slot in it and reads that
   * slot's entry and array from the same generation.
   */
  static final class Slots {
    private final int[] tags;
    private final LruEntry[] entries;
    private final byte[][] blocks;
    private final int mask;

    private Slots(int size) {
      this.tags = new int[size];
      this.entries = new LruEntry[size];
      this.blocks = new byte[size][];
      this.mask = size - 1;
    }

    /** The slot of {@code key}'s entry, or -1. Lock-free. */
    int find(BlockKey key) {
      return find(key.file(), key.offset(), key.hash64());
    }

    /** The slot of the entry of the key made of {@code file}, {@code offset} and {@code hash64}, or -1. Lock-free. */
    int find(String file, long offset, long hash64) {
      int tag = tag(hash64);
      for (int i = tag & mask; ; i = (i + 1) & mask) {
        int t = (int) TAGS.getAcquire(tags, i);
        if (t == tag) {
          LruEntry e = (LruEntry) ENTRIES.getAcquire(entries, i);
          if (e != null && e.hasKey(file, offset)) {
            return i;
          }
        } else if (t == 0) {
          return -1;
        }
      }
    }

    /**
     * The entry in slot {@code i} if it is still the entry of the key made of {@code file} and {@code offset} (a
     * writer may have emptied or reused the slot since {@link #find}), else null. Lock-free.
     */
    LruEntry entryAt(int i, String file, long offset) {
      LruEntry e = (LruEntry) ENTRIES.getAcquire(entries, i);
      return e != null && e.hasKey(file, offset) ? e : null;
    }

    /** The array in slot {@code i}: its entry's whole array, null, or (racing a writer) another entry's. */
    byte[] blockAt(int i) {
      return (byte[]) BLOCKS.getAcquire(blocks, i);
    }
  }

  private volatile Slots slots;
  /** Slots holding an entry. Guarded by the list lock; read without it by {@link #size()}. */
  private volatile int live;
  /** Slots that are not empty: live entries plus tombstones. Guarded by the list lock. */
  private int used;

  /** A table presized for {@code expectedEntries} entries at most half its slots. */
  EntryTable(int expectedEntries) {
    long wanted = Math.max(MIN_SLOTS, 2L * expectedEntries);
    this.slots = new Slots((int) Math.min(MAX_SLOTS, Long.highestOneBit(wanted - 1) << 1));
  }

  /** The tag of a hash: its upper 32 bits, never 0 (the empty slot's tag). */
  private static int tag(long hash64) {
    int t = (int) (hash64 >>> 32);
    return t != 0 ? t : 1;
  }

  /** The entry of {@code key}, or null. Lock-free. */
  LruEntry get(BlockKey key) {
    Slots s = slots;
    int i = s.find(key);
    return i < 0 ? null : s.entryAt(i, key.file(), key.offset());
  }

  /** The current generation, for a reader that reads a slot's entry and array ({@link Slots}). */
  Slots slots() {
    return slots;
  }

  /** The number of entries. */
  int size() {
    return live;
  }

  /**
   * Inserts {@code entry}, cached under {@code key}, unless an entry of that key is present.
   *
   * @return the present entry, or null if {@code entry} was inserted
   */
  @SuppressWarnings("NonAtomicVolatileUpdate") // written under the cache's list lock only; read without it
  LruEntry putIfAbsentLocked(BlockKey key, LruEntry entry) {
    Slots s = slots;
    int tag = tag(key.hash64());
    int free = -1;
    int i = tag & s.mask;
    for (int t; (t = s.tags[i]) != 0; i = (i + 1) & s.mask) {
      LruEntry e = s.entries[i];
      if (e == null) {
        if (free < 0) {
          free = i;
        }
      } else if (t == tag && e.hasKey(key)) {
        return e;
      }
    }
    if (free < 0) {
      free = i;
      used++;
    }
    BLOCKS.setRelease(s.blocks, free, entry.wholeArray());
    ENTRIES.setRelease(s.entries, free, entry);
    TAGS.setRelease(s.tags, free, tag);
    live++;
    if (used > s.tags.length - (s.tags.length >>> 2)) {
      rebuildLocked(s);
    }
    return null;
  }

  /** Removes {@code entry} if it is the entry of its key; returns whether it did. */
  boolean removeLocked(LruEntry entry) {
    int i = slotOfLocked(entry.key(), entry);
    if (i < 0) {
      return false;
    }
    clearLocked(slots, i);
    return true;
  }

  /** Removes and returns the entry of {@code key}, or returns null if there is none. */
  LruEntry removeLocked(BlockKey key) {
    int i = slotOfLocked(key, null);
    if (i < 0) {
      return null;
    }
    LruEntry e = slots.entries[i];
    clearLocked(slots, i);
    return e;
  }

  /** Makes slot {@code i} a tombstone: its tag stays, its entry and array go (the array may be collected). */
  @SuppressWarnings("NonAtomicVolatileUpdate") // written under the cache's list lock only; read without it
  private void clearLocked(Slots s, int i) {
    ENTRIES.setRelease(s.entries, i, null);
    BLOCKS.setRelease(s.blocks, i, null);
    live--;
  }

  /** The slot of {@code key}'s entry (of {@code expected} itself when it is not null), or -1. */
  private int slotOfLocked(BlockKey key, LruEntry expected) {
    Slots s = slots;
    int tag = tag(key.hash64());
    for (int i = tag & s.mask, t; (t = s.tags[i]) != 0; i = (i + 1) & s.mask) {
      LruEntry e = s.entries[i];
      if (t == tag && e != null && (expected != null ? e == expected : e.hasKey(key))) {
        return i;
      }
    }
    return -1;
  }

  /** Calls {@code action} with every entry (entries removed by {@code action} itself included). */
  void forEachLocked(Consumer<LruEntry> action) {
    LruEntry[] entries = slots.entries;
    for (LruEntry e : entries) {
      if (e != null) {
        action.accept(e);
      }
    }
  }

  /** Copies the live entries of {@code old} into new arrays, twice as large if more than half its slots are live. */
  private void rebuildLocked(Slots old) {
    int size = old.tags.length;
    if (live > size >>> 1 && size < MAX_SLOTS) {
      size <<= 1;
    }
    Slots s = new Slots(size);
    for (int j = 0; j < old.tags.length; j++) {
      LruEntry e = old.entries[j];
      if (e != null) {
        int tag = old.tags[j];
        int i = tag & s.mask;
        while (s.tags[i] != 0) {
          i = (i + 1) & s.mask;
        }
        s.tags[i] = tag;
        s.entries[i] = e;
        s.blocks[i] = old.blocks[j];
      }
    }
    used = live;
    slots = s; // publishes the new arrays with their contents
  }

  /** The number of slots, for tests. */
  int slotCount() {
    return slots.tags.length;
  }
}
