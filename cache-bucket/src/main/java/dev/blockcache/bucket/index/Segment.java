package dev.blockcache.bucket.index;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.blockcache.api.CachePriority;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongPredicate;

/**
 * One stripe of {@link BlockIndex}: an open-addressing hash table with linear probing and backward-shift deletion
 * (no tombstones), over a single {@code long[]} of two words per slot:
 *
 * <pre>
 *   table[2i]     fingerprint   (0 = empty slot; stored fingerprints are never 0)
 *   table[2i + 1] stored entry  = IndexEntry value | REF_BIT (bit 63: CLOCK reference bit)
 * </pre>
 * A slot's home is {@code (low 32 bits of fingerprint * capacity) >>> 32}, so any capacity works (no power of two
 * needed) and the table can grow by {@link SegmentGrowth} instead of doubling, which
 * keeps the load, and so the heap per entry, in a narrow band.
 *
 * <p>An index with a frequency sketch also keeps {@link #stamps}, a byte per slot parallel to the table: the low 8
 * bits of the recency epoch of the slot's entry's last read or insert. A stamp moves with its entry.
 *
 * <p>Invariants, under {@link #lock}: every entry sits in the cluster that starts at its home (no empty slot between
 * home and entry); {@link #size} is the number of non-empty slots; {@link #countByPriority} counts them per
 * priority and {@link #windowCount} those with the admission-window bit ({@link IndexEntry#inWindow}); the shared
 * adders were updated by the same amounts.
 *
 * <p>Thread-safety: every mutation runs under the write lock of {@link #lock}. Lookups read optimistically and
 * fall back to the read lock; a lookup sets the reference bit with a CAS on the exact word it read, so a lost race
 * only loses the bit (see {@link BlockIndex} for the full model). Methods ending in {@code Locked} need the write
 * lock. The CLOCK walks ({@link ClockHand}) work on the package-private fields and {@link #deleteLocked} under the
 * write lock.
 *
 * <p>The {@code @GuardedBy} fields and {@code Locked} methods are checked by Error Prone: every mutation takes the
 * write lock with {@link SegmentLock#lock()} and releases it with {@link SegmentLock#unlock()} in a {@code finally},
 * which the checker follows. Its exceptions are marked: {@link #lookup}'s optimistic and stamped reads,
 * {@link #forEach}'s stamped read lock, and the metrics' racy reads of array lengths.
 */
final class Segment {
  /** Reference bit in a stored entry word: free in every {@link IndexEntry} value. */
  static final long REF_BIT = Long.MIN_VALUE;
  /** Smallest capacity in slots: 8 slots (128 bytes) keeps an empty segment cheap. */
  static final int MIN_CAPACITY = 8;
  /**
   * The walk kind ({@link ClockHand#sample}'s {@code p}) over entries in the admission window, whatever their
   * priority.
   */
  static final int WINDOW = -1;
  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

  final SegmentLock lock = new SegmentLock();
  @GuardedBy("lock")
  long[] table = new long[2 * MIN_CAPACITY];
  @GuardedBy("lock")
  private int size;
  @GuardedBy("lock")
  final int[] countByPriority = new int[CachePriority.COUNT];
  @GuardedBy("lock")
  int windowCount;
  /**
   * Per slot, the low 8 bits of the {@link BlockIndex} recency epoch in which the slot's entry was last read or
   * inserted (tinylfu), or null when the index keeps no recency ({@code hbase} policy). Moves with its entry (resize,
   * backward shift); lookups write it without the lock (see {@link #lookup}).
   */
  @GuardedBy("lock")
  byte[] stamps;

  private final LongAdder totalSize;
  private final LongAdder[] totalBytes;
  private final LongAdder totalWindow;

  Segment(LongAdder totalSize, LongAdder[] totalBytes, LongAdder totalWindow) {
    this(totalSize, totalBytes, totalWindow, false);
  }

  /** A segment that also stamps each entry with the recency epoch of its last read if {@code stamped}. */
  Segment(LongAdder totalSize, LongAdder[] totalBytes, LongAdder totalWindow, boolean stamped) {
    this.totalSize = totalSize;
    this.totalBytes = totalBytes;
    this.totalWindow = totalWindow;
    this.stamps = stamped ? new byte[MIN_CAPACITY] : null;
  }

  /** What a lookup does to the entry it finds. */
  enum Access {
    /** Sets the reference bit and promotes a SINGLE entry to MULTI: a read of the block. */
    TOUCH,
    /** Leaves access state alone: a revalidation, not a read. */
    PEEK
  }

  /**
   * Looks {@code fp} up, changing its access state as {@code access} says.
   *
   * @return the entry (without the reference bit) or {@link IndexEntry#ABSENT}
   */
  long lookup(long fp, Access access) {
    return lookup(fp, access, 0);
  }

  /**
   * As {@link #lookup(long, Access)}; a {@link Access#TOUCH} also stamps the entry with {@code epoch} (if the segment
   * keeps stamps). The stamp is a plain write of one byte, without the lock, and only if it changes: a write racing
   * with a resize or a backward shift may be lost or land on a neighbour's slot, which blurs that entry's recency by
   * an epoch and nothing else (the stamp is a hint for the victim choice, never part of the mapping).
   */
  @SuppressWarnings("GuardedBy") // the optimistic read reads the table without the lock, by design (validated)
  long lookup(long fp, Access access, int epoch) {
    long[] t;
    int slot;
    long stored;
    long stamp = lock.tryOptimisticRead();
    if (stamp != 0) {
      t = table;
      slot = LinearProbe.find(t, fp);
      stored = slot >= 0 ? t[2 * slot + 1] : 0;
      if (!lock.validate(stamp)) {
        stamp = 0;
      }
    } else {
      t = null;
      slot = -1;
      stored = 0;
    }
    if (stamp == 0) {
      stamp = lock.readLock();
      try {
        t = table;
        slot = LinearProbe.find(t, fp);
        stored = slot >= 0 ? t[2 * slot + 1] : 0;
      } finally {
        lock.unlockRead(stamp);
      }
    }
    if (slot < 0) {
      return IndexEntry.ABSENT;
    }
    long entry = stored & ~REF_BIT;
    if (access == Access.TOUCH) {
      byte[] st = stamps;
      if (st != null && slot < st.length && st[slot] != (byte) epoch) {
        st[slot] = (byte) epoch;
      }
      if (IndexEntry.priorityOrdinal(entry) == CachePriority.SINGLE.ordinal()) {
        return promote(fp);
      }
      if ((stored & REF_BIT) == 0) {
        // Succeeds only if the word is still exactly what we read; else a writer changed it and the bit is moot.
        WORDS.compareAndSet(t, 2 * slot + 1, stored, stored | REF_BIT);
      }
    }
    return entry;
  }

  /** The repeat access of a SINGLE entry: it becomes MULTI and referenced. */
  private long promote(long fp) {
    lock.lock();
    try {
      long[] t = table;
      int slot = LinearProbe.find(t, fp);
      if (slot < 0) {
        return IndexEntry.ABSENT; // removed since the lookup
      }
      long entry = t[2 * slot + 1] & ~REF_BIT;
      int p = IndexEntry.priorityOrdinal(entry);
      if (p == CachePriority.SINGLE.ordinal()) {
        int length = IndexEntry.length(entry);
        entry = IndexEntry.withPriority(entry, CachePriority.MULTI);
        countByPriority[p]--;
        countByPriority[CachePriority.MULTI.ordinal()]++;
        totalBytes[p].add(-length);
        totalBytes[CachePriority.MULTI.ordinal()].add(length);
      }
      t[2 * slot + 1] = entry | REF_BIT;
      return entry;
    } finally {
      lock.unlock();
    }
  }

  /** Inserts {@code entry} under {@code fp} unless present; returns ABSENT when inserted, else the existing entry. */
  long putIfAbsent(long fp, long entry) {
    return putIfAbsent(fp, entry, 0);
  }

  /** As {@link #putIfAbsent(long, long)}, stamping a new entry with the recency {@code epoch}. */
  long putIfAbsent(long fp, long entry, int epoch) {
    lock.lock();
    try {
      return putIfAbsentLocked(fp, entry, epoch);
    } finally {
      lock.unlock();
    }
  }

  @GuardedBy("lock")
  private long putIfAbsentLocked(long fp, long entry, int epoch) {
    int slot = LinearProbe.find(table, fp);
    if (slot >= 0) {
      return table[2 * slot + 1] & ~REF_BIT;
    }
    int cap = table.length >>> 1;
    if (SegmentGrowth.overloaded(size + 1, cap)) {
      resizeLocked(SegmentGrowth.grown(cap));
      slot = LinearProbe.find(table, fp);
    }
    int free = -slot - 1;
    table[2 * free] = fp;
    // A window entry starts referenced, so the window's hand passes it once before it can leave: about one
    // revolution of that hand in the window, as a CLOCK gives an entry inserted behind its hand (a hash table keeps
    // no insertion order, so a new entry may land just ahead of the hand).
    table[2 * free + 1] = IndexEntry.inWindow(entry) ? entry | REF_BIT : entry;
    if (stamps != null) {
      stamps[free] = (byte) epoch;
    }
    size++;
    int p = IndexEntry.priorityOrdinal(entry);
    countByPriority[p]++;
    totalSize.increment();
    totalBytes[p].add(IndexEntry.length(entry));
    if (IndexEntry.inWindow(entry)) {
      windowCount++;
      totalWindow.increment();
    }
    return IndexEntry.ABSENT;
  }

  /**
   * Grows the table, if needed, to hold {@code entries} at a load of at most 3/4, so that inserting that many does
   * not resize. A restore calls it first: it inserts in table order, i.e. sorted by home slot, and sorted inserts into
   * a table much smaller than their final one pile into one ever-longer cluster (quadratic probing and resizing).
   * Into the final table they cluster no more than any insert order does, so the load is the middle of the band a
   * growing table keeps ([0.64, 0.8]): a restarted cache costs the heap per entry of one filled by inserts, where a
   * load of 3/5 cost a quarter more (27 B instead of 21 B per entry for the table).
   */
  void presize(int entries) {
    lock.lock();
    try {
      long wanted = Math.max(MIN_CAPACITY, (long) entries * 4 / 3 + 1);
      if (wanted > table.length >>> 1) {
        resizeLocked((int) Math.min(wanted, Integer.MAX_VALUE >>> 2));
      }
    } finally {
      lock.unlock();
    }
  }

  @GuardedBy("lock")
  private void resizeLocked(int newCapacity) {
    long[] old = table;
    long[] t = new long[2 * newCapacity];
    byte[] oldStamps = stamps;
    byte[] st = oldStamps == null ? null : new byte[newCapacity];
    for (int i = 0; i < old.length; i += 2) {
      long fp = old[i];
      if (fp != 0) {
        int j = LinearProbe.home(fp, newCapacity);
        while (t[2 * j] != 0) {
          if (++j == newCapacity) {
            j = 0;
          }
        }
        t[2 * j] = fp;
        t[2 * j + 1] = old[i + 1];
        if (st != null) {
          st[j] = oldStamps[i >>> 1];
        }
      }
    }
    table = t; // plain write: optimistic readers of the old array fail validation
    stamps = st; // a lookup that pairs the new table with the old stamps only loses a stamp
  }

  /** Removes {@code fp} if it maps to exactly {@code entry}. */
  boolean remove(long fp, long entry) {
    lock.lock();
    try {
      int slot = LinearProbe.find(table, fp);
      if (slot < 0 || (table[2 * slot + 1] & ~REF_BIT) != entry) {
        return false;
      }
      deleteLocked(slot);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Empties slot {@code i} and shifts later members of its cluster back so that no lookup is cut short (Knuth's
   * Algorithm R). Entries only ever move to an earlier position of their cluster.
   */
  @GuardedBy("lock")
  void deleteLocked(int i) {
    long[] t = table;
    byte[] st = stamps;
    int cap = t.length >>> 1;
    long entry = t[2 * i + 1] & ~REF_BIT;
    int hole = i;
    int j = i;
    while (true) {
      if (++j == cap) {
        j = 0;
      }
      long f = t[2 * j];
      if (f == 0) {
        break;
      }
      int h = LinearProbe.home(f, cap);
      // The entry at j may fill the hole unless its home lies cyclically in (hole, j].
      boolean homeAfterHole = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (!homeAfterHole) {
        t[2 * hole] = f;
        t[2 * hole + 1] = t[2 * j + 1];
        if (st != null) {
          st[hole] = st[j];
        }
        hole = j;
      }
    }
    t[2 * hole] = 0;
    t[2 * hole + 1] = 0;
    size--;
    int p = IndexEntry.priorityOrdinal(entry);
    countByPriority[p]--;
    totalSize.decrement();
    totalBytes[p].add(-IndexEntry.length(entry));
    if (IndexEntry.inWindow(entry)) {
      windowCount--;
      totalWindow.decrement();
    }
  }

  /**
   * Takes the entry under {@code fp} out of the admission window if it is exactly {@code entry} (reference bit
   * ignored) and in the window; its reference bit and every other field stay.
   *
   * @return whether the window bit was cleared
   */
  boolean leaveWindow(long fp, long entry) {
    lock.lock();
    try {
      int slot = LinearProbe.find(table, fp);
      if (slot < 0 || (table[2 * slot + 1] & ~REF_BIT) != entry || !IndexEntry.inWindow(entry)) {
        return false;
      }
      table[2 * slot + 1] = IndexEntry.outOfWindow(table[2 * slot + 1]);
      windowCount--;
      totalWindow.decrement();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Removes every entry whose fingerprint tag is {@code tag}, passing each to {@code sink}. Scans the segment. */
  int removeTag(long tag, EntrySink sink) {
    return removeWhere((fingerprint, entry) -> Fingerprint.tagOf(fingerprint) == tag, sink);
  }

  /** Removes every entry {@code accept} takes (to {@code sink}); returns how many. */
  int removeEntries(LongPredicate accept, EntrySink sink) {
    return removeWhere((fingerprint, entry) -> accept.test(entry), sink);
  }

  /** Decides on one slot's (fingerprint, entry without the reference bit). */
  @FunctionalInterface
  private interface SlotFilter {
    boolean test(long fingerprint, long entry);
  }

  private int removeWhere(SlotFilter filter, EntrySink sink) {
    RemovedEntries removed = new RemovedEntries();
    lock.lock();
    try {
      int cap = table.length >>> 1;
      // A deletion can pull a later entry (or one wrapped from slot 0) into slot i, so i is examined again.
      for (int i = 0; i < cap && size > 0; ) {
        long f = table[2 * i];
        long entry = table[2 * i + 1] & ~REF_BIT;
        if (f != 0 && filter.test(f, entry)) {
          deleteLocked(i);
          removed.add(entry);
        } else {
          i++;
        }
      }
    } finally {
      lock.unlock();
    }
    int n = removed.count();
    removed.drainTo(sink);
    return n;
  }

  /**
   * Removes everything and shrinks the table to its minimum; the entries go to {@code sink} once the lock is
   * released. Returns the entries removed.
   */
  int clear(EntrySink sink) {
    RemovedEntries removed = new RemovedEntries();
    lock.lock();
    try {
      long[] t = table;
      for (int i = 0; i < t.length; i += 2) {
        if (t[i] != 0) {
          long entry = t[i + 1] & ~REF_BIT;
          int p = IndexEntry.priorityOrdinal(entry);
          totalBytes[p].add(-IndexEntry.length(entry));
          if (IndexEntry.inWindow(entry)) {
            totalWindow.decrement();
          }
          removed.add(entry);
        }
      }
      totalSize.add(-removed.count());
      table = new long[2 * MIN_CAPACITY];
      if (stamps != null) {
        stamps = new byte[MIN_CAPACITY];
      }
      size = 0;
      windowCount = 0;
      Arrays.fill(countByPriority, 0);
    } finally {
      lock.unlock();
    }
    int n = removed.count();
    removed.drainTo(sink);
    return n;
  }

  /** Visits every entry under the read lock. */
  @SuppressWarnings("GuardedBy") // under the stamped read lock, which the checker cannot follow (see SegmentLock)
  void forEach(int segment, EntryVisitor v) {
    long stamp = lock.readLock();
    try {
      long[] t = table;
      for (int i = 0; i < t.length; i += 2) {
        if (t[i] != 0) {
          v.visit(segment, t[i], t[i + 1] & ~REF_BIT);
        }
      }
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /** Capacity in slots; a racy read, for metrics. */
  @SuppressWarnings("GuardedBy") // a racy read of an array's length: a metric, not a decision
  int capacityForMetrics() {
    return table.length >>> 1;
  }

  /** Heap of the recency stamps (array header and a byte per slot, 8-aligned), 0 without; a racy read, for metrics. */
  @SuppressWarnings("GuardedBy") // a racy read of an array's length: a metric, not a decision
  long stampHeapBytes() {
    return RecencyClock.heapBytes(stamps);
  }
}
