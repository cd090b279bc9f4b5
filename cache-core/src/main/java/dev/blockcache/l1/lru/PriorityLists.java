package dev.blockcache.l1.lru;

import dev.blockcache.api.CachePriority;

/**
 * The CLOCK lists of an {@link LruBlockCache}, one per priority ({@link ClockList}), and the order an eviction pass
 * takes their entries in: list heads first, a referenced multi or memory entry given a second chance, a promoted entry
 * moved to the multi list's tail in promotion order ({@link Promotions}) before a pass or an insert looks at the lists.
 * What happens to a chosen entry (removal from the table, accounting, its file chain) is the cache's
 * ({@link Victims}).
 *
 * <p>Thread-safety: not thread-safe; every method must be called with the owning cache's list lock held (hence the
 * {@code Locked} suffix). The promotions ring is the cache's: gets offer to it without the lock, these methods drain
 * it under the lock.
 */
final class PriorityLists {
  private static final int SINGLE = CachePriority.SINGLE.ordinal();
  private static final int MULTI = CachePriority.MULTI.ordinal();
  private static final int MEMORY = CachePriority.MEMORY.ordinal();

  /** What a pass does with the entry it chose, already unlinked from its list. */
  @FunctionalInterface
  interface Victims {
    /**
     * Removes {@code entry} from the cache and returns the heap that freed (0: a remover got there first); may open
     * the list lock to spinning inserts between victims.
     */
    long evictLocked(LruEntry entry);
  }

  private final ClockList[] lists = {new ClockList(SINGLE), new ClockList(MULTI), new ClockList(MEMORY)};
  private final Promotions promotions;

  /** Lists that drain {@code promotions}. */
  PriorityLists(Promotions promotions) {
    this.promotions = promotions;
  }

  /** Links a new entry of priority ordinal {@code priority} at its list's tail. */
  void linkLastLocked(LruEntry entry, int priority) {
    lists[priority].linkLastLocked(entry);
  }

  /** Unlinks {@code entry} from the list it is in, if any. */
  void unlinkLocked(LruEntry entry) {
    if (entry.listed != LruEntry.UNLISTED) {
      lists[entry.listed].unlinkLocked(entry);
    }
  }

  /**
   * Moves the entries promoted since the last call to the multi list's tail, in promotion order, their reference bits
   * cleared (the promoting hit is what places them there). An entry already moved by a pass, or removed, stays.
   */
  void linkPromotedLocked() {
    for (LruEntry e; (e = promotions.pollLocked()) != null; ) {
      if (e.listed == SINGLE && e.state() == MULTI) {
        lists[SINGLE].unlinkLocked(e);
        lists[MULTI].linkLastLocked(e);
        e.clearReferenced();
      }
    }
  }

  /**
   * Frees at least {@code bytes} (or everything) from the list of priority {@code p}, oldest first, through
   * {@code victims}. When the multi list runs out first, the promoted entries still linked in the single list join
   * it, and freeing goes on.
   */
  long freeLocked(int p, long bytes, Victims victims) {
    long freed = freeListLocked(p, bytes, victims);
    if (freed < bytes && p == MULTI && lists[SINGLE].moveStateLocked(MULTI, lists[MULTI]) > 0) {
      freed += freeListLocked(p, bytes - freed, victims);
    }
    return freed;
  }

  /** Frees at least {@code bytes} (or everything) from the list of priority {@code p} as it stands, oldest first. */
  private long freeListLocked(int p, long bytes, Victims victims) {
    ClockList list = lists[p];
    long freed = 0;
    int budget = 2 * list.sizeLocked();
    LruEntry e;
    while (freed < bytes && budget-- > 0 && (e = list.headLocked()) != null) {
      list.unlinkLocked(e);
      int state = e.state();
      if (state == LruEntry.REMOVED) {
        continue; // its remover unlinks it from its file chain
      }
      if (state != p) {
        // promoted while single, its promotion lost by the ring: it joins multi as of now, its bit spent on that
        lists[state].linkLastLocked(e);
        e.clearReferenced();
        continue;
      }
      if (p != SINGLE && e.isReferenced()) {
        e.clearReferenced();
        list.linkLastLocked(e);
        continue;
      }
      freed += victims.evictLocked(e);
    }
    return freed;
  }

  /** Empties every list and drops the pending promotions (their entries are gone). */
  void clearLocked() {
    while (promotions.pollLocked() != null) {
      // dropped
    }
    for (ClockList list : lists) {
      list.clearLocked();
    }
  }
}
