package dev.blockcache.l1.lru;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The entries an {@link LruBlockCache}'s gets promoted from single to multi whose list links have not followed yet,
 * in the order they were promoted: a bounded, lossy ring that any get may add to without a lock and that the holder
 * of the list lock drains, so that a promoted entry joins the multi list's tail at the next insert or eviction pass,
 * as HBase's access-time order would place it, rather than when a pass happens to meet it in the single list.
 *
 * <h2>Design notes</h2>
 * <pre>
 *   slots:  [ e | e | e | null | ... ]  CAPACITY references, index = sequence &amp; MASK
 *            ^head (drained up to)     ^tail (claimed up to)
 * </pre>
 * A producer claims sequence {@code tail} with one CAS when fewer than {@link #CAPACITY} are undrained, then publishes
 * its entry in that slot with a release store. The consumer (under the list lock) takes slots from {@code head} in
 * order and stops at the first one still empty (claimed, not yet published: the next drain takes it), clearing each
 * slot it takes before it advances {@code head}, so a producer never overwrites an undrained slot.
 *
 * <p>An offer fails (returns false) when the ring is full or its CAS loses a race; the entry then stays where it is
 * and an eviction pass moves it when it meets it, as before this ring existed: a lost offer costs order, never
 * correctness. A promotion happens once in an entry's life, so gets that hit promoted entries never touch the ring.
 *
 * <p>Thread-safety: {@link #offer} from any thread; {@link #pollLocked} only with the owning
 * cache's list lock held.
 */
final class Promotions {
  /**
   * Slots in the ring, a power of two (4 KiB of references): more than the first hits between two drains of a
   * replayed zigzag scan, where a 256-slot ring lost promotions and the hit ratio with them. Every path that removes
   * entries drains first, so the ring keeps no removed block's array from the collector beyond a race.
   */
  static final int CAPACITY = 1024;

  private static final int MASK = CAPACITY - 1;
  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(LruEntry[].class);

  private final LruEntry[] slots = new LruEntry[CAPACITY];
  /** The next sequence a producer claims. */
  private final AtomicLong tail = new AtomicLong();
  /** The next sequence the consumer takes; written under the list lock only, read by producers. */
  private volatile long head;

  /** Records that {@code entry} was promoted; false if the ring was full or the claim raced (see class notes). */
  boolean offer(LruEntry entry) {
    long t = tail.get();
    if (t - head >= CAPACITY || !tail.compareAndSet(t, t + 1)) {
      return false;
    }
    SLOTS.setRelease(slots, (int) (t & MASK), entry);
    return true;
  }

  /**
   * The oldest published promotion, its slot freed, or null if there is none (a claimed slot not yet published ends
   * the drain: the next one takes it).
   */
  LruEntry pollLocked() {
    long h = head;
    if (h >= tail.get()) {
      return null;
    }
    int i = (int) (h & MASK);
    LruEntry e = (LruEntry) SLOTS.getAcquire(slots, i);
    if (e != null) {
      SLOTS.setRelease(slots, i, null);
      head = h + 1;
    }
    return e;
  }
}
