package dev.blockcache.l1.lru;

/**
 * An intrusive doubly-linked FIFO of {@link LruEntry}s: entries enter at the tail, eviction looks at the head, and a
 * referenced entry gets a second chance by moving back to the tail (CLOCK). Linking and unlinking are O(1).
 *
 * <p>Thread-safety: not thread-safe; every method must be called with the owning cache's list lock held (hence the
 * {@code Locked} suffix).
 */
final class ClockList {
  /** This list's index in its cache (the priority ordinal), recorded in each entry it links. */
  final byte index;
  private LruEntry head;
  private LruEntry tail;
  private int size;

  ClockList(int index) {
    this.index = (byte) index;
  }

  void linkLastLocked(LruEntry e) {
    e.listed = index;
    e.prev = tail;
    e.next = null;
    if (tail == null) {
      head = e;
    } else {
      tail.next = e;
    }
    tail = e;
    size++;
  }

  /** Unlinks {@code e} if it is linked in this list; a no-op otherwise. */
  void unlinkLocked(LruEntry e) {
    if (e.listed != index) {
      return;
    }
    if (e.prev == null) {
      head = e.next;
    } else {
      e.prev.next = e.next;
    }
    if (e.next == null) {
      tail = e.prev;
    } else {
      e.next.prev = e.prev;
    }
    e.prev = null;
    e.next = null;
    e.listed = LruEntry.UNLISTED;
    size--;
  }

  /**
   * Moves every entry of this list whose state is {@code state} to the tail of {@code to}, in this list's order (an
   * LRU cache's promoted entries still linked as single), clearing their reference bits (the promoting hit set them,
   * and the move to the tail is that hit's due); returns how many it moved.
   */
  int moveStateLocked(int state, ClockList to) {
    int moved = 0;
    for (LruEntry e = head, next; e != null; e = next) {
      next = e.next;
      if (e.state() == state) {
        unlinkLocked(e);
        to.linkLastLocked(e);
        e.clearReferenced();
        moved++;
      }
    }
    return moved;
  }

  LruEntry headLocked() {
    return head;
  }

  int sizeLocked() {
    return size;
  }

  void clearLocked() {
    LruEntry e = head;
    while (e != null) {
      LruEntry next = e.next;
      e.prev = null;
      e.next = null;
      e.listed = LruEntry.UNLISTED;
      e = next;
    }
    head = null;
    tail = null;
    size = 0;
  }
}
