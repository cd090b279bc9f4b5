package dev.blockcache.bucket.alloc;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * Counts the readers that hold an L2 slot, so that a slot is never returned to its allocator while a reader copies
 * from it; eviction asks for the free with {@link #freeWhenUnpinned} and the last {@link #unpin} performs it.
 *
 * <h2>Design notes</h2>
 * The offsets are spread by a 64-bit mix over a fixed power-of-two number of stripes. Each stripe is a lock
 * guarding an open-addressing table (linear probing, load factor at most 1/2, deletion by backward shift, so no
 * tombstones) from offset to {@code (pins, deferred length)}. A slot has an entry iff it holds at least one pin; the
 * deferred length is {@link #NO_FREE} until eviction asks for the free. Pin and unpin allocate nothing: the only
 * allocation is doubling a stripe's table, under its lock, when it holds more pinned offsets than ever before (tables
 * never shrink, so after warm-up there is none).
 *
 * <p><b>The stripe lock</b> is one {@code int} taken by compare-and-set and given back by a release store: every L2
 * hit pins and unpins, and this costs one atomic instruction per pin or unpin where a monitor costs two (enter and
 * exit each compare-and-set the object header). An atomic instruction also stops the processor's later loads until
 * the earlier ones complete, so each one removed lets more of a get's memory reads overlap. The sections it guards
 * are a few dozen instructions and never block; a thread that finds the lock taken spins briefly, then yields, so a
 * holder descheduled on an oversubscribed machine gets the processor back. Neither allocates, unlike a contended
 * {@code ReentrantLock}.
 *
 * <h2>Life of a slot, as seen here</h2>
 * <ol>
 *   <li>No entry: not pinned. {@code pin} creates the entry with one pin; {@code freeWhenUnpinned} frees at once.
 *   <li>Entry with {@code pins > 0}, no deferred free: {@code pin}/{@code unpin} count; {@code freeWhenUnpinned}
 *       records the length and moves to 3.
 *   <li>Entry with a deferred free: further pins are still counted ({@link #pinUnlessFreeing} refuses them); the
 *       {@code unpin} that brings pins to 0 removes the entry under the lock and then, outside it, calls
 *       {@link SlotFreer#free} — exactly once, because only one unpin can observe the count reaching 0.
 * </ol>
 * A reader must pin only a slot it found through a live index entry and re-check the entry after pinning (or pin
 * under the entry's lock): this class cannot tell a stale offset from a live one once its free has happened. Asking
 * for the free of one allocation twice is a caller bug: while the first request is deferred the second throws
 * {@link IllegalStateException}; once the first has freed, the second reaches the freer, and
 * {@link BucketAllocator#free} throws {@link IllegalStateException} for the double free.
 *
 * <p>Thread-safety: thread-safe. The freer is called with no stripe lock held, so it may take its own locks (the
 * allocator's) and may call back into this class. An exception from the freer propagates to the caller of
 * {@code unpin} or {@code freeWhenUnpinned}; the pin entry is gone by then.
 */
public final class SlotPins {
  /** Deferred length meaning "no free requested". */
  public static final int NO_FREE = -1;
  /** Default number of stripes: enough that a few dozen reader threads rarely meet on one stripe. */
  public static final int DEFAULT_STRIPES = 64;
  /** Initial slots per stripe table (a power of two): four pinned offsets before the first growth. */
  private static final int INITIAL_TABLE = 8;
  private static final long EMPTY = -1L;

  private final SlotFreer freer;
  private final Stripe[] stripes;
  private final int stripeShift;

  /** Pins with {@value #DEFAULT_STRIPES} stripes; {@code freer} is called when a (possibly deferred) free happens. */
  public SlotPins(SlotFreer freer) {
    this(freer, DEFAULT_STRIPES);
  }

  /** Pins with {@code stripes} stripes, a power of two in [1, 2^16]. */
  public SlotPins(SlotFreer freer, int stripes) {
    this.freer = Objects.requireNonNull(freer, "freer");
    if (stripes < 1 || stripes > 1 << 16 || Integer.bitCount(stripes) != 1) {
      throw new IllegalArgumentException("stripes " + stripes + " is not a power of two in [1, 65536]");
    }
    this.stripes = new Stripe[stripes];
    for (int i = 0; i < stripes; i++) {
      this.stripes[i] = new Stripe();
    }
    this.stripeShift = 64 - Integer.numberOfTrailingZeros(stripes);
  }

  /** Adds a pin to {@code offset}; the caller must {@link #unpin} it exactly once. */
  public void pin(long offset) {
    long h = hash(checkOffset(offset));
    Stripe s = stripeOf(h);
    s.lock();
    try {
      s.pinLocked(offset, h);
    } finally {
      s.unlock();
    }
  }

  /**
   * Adds a pin unless a free of {@code offset} is already deferred (the slot is being evicted).
   *
   * @return true if pinned (the caller must {@link #unpin}), false if nothing was done
   */
  public boolean pinUnlessFreeing(long offset) {
    long h = hash(checkOffset(offset));
    Stripe s = stripeOf(h);
    s.lock();
    try {
      int i = s.findLocked(offset, h);
      if (i >= 0 && s.deferred[i] != NO_FREE) {
        return false;
      }
      s.pinLocked(offset, h);
      return true;
    } finally {
      s.unlock();
    }
  }

  /**
   * Drops one pin; if it was the last and a free was deferred, calls the freer (exactly once, outside the lock).
   *
   * @throws IllegalStateException if {@code offset} holds no pin
   */
  public void unpin(long offset) {
    long h = hash(checkOffset(offset));
    Stripe s = stripeOf(h);
    int length;
    s.lock();
    try {
      int i = s.findLocked(offset, h);
      if (i < 0) {
        throw new IllegalStateException("unpin of offset " + offset + " that holds no pin");
      }
      if (--s.pins[i] > 0) {
        return;
      }
      length = s.deferred[i];
      if (length != NO_FREE) {
        s.deferredCount--;
      }
      s.removeAtLocked(i);
    } finally {
      s.unlock();
    }
    if (length != NO_FREE) {
      freer.free(offset, length);
    }
  }

  /**
   * Frees the slot now if no reader holds it, else defers the free to the last {@link #unpin}.
   *
   * @return true if the freer was called now, false if the free is deferred
   * @throws IllegalStateException if a free of this offset is already deferred
   */
  public boolean freeWhenUnpinned(long offset, int length) {
    if (length < 0) {
      throw new IllegalArgumentException("length " + length + " of offset " + offset + " is negative");
    }
    long h = hash(checkOffset(offset));
    Stripe s = stripeOf(h);
    s.lock();
    try {
      int i = s.findLocked(offset, h);
      if (i >= 0) {
        if (s.deferred[i] != NO_FREE) {
          throw new IllegalStateException("free of offset " + offset + " requested twice (already deferred, length "
              + s.deferred[i] + ")");
        }
        s.deferred[i] = length;
        s.deferredCount++;
        return false;
      }
    } finally {
      s.unlock();
    }
    freer.free(offset, length);
    return true;
  }

  /** Pins currently held on {@code offset}. */
  public int pinCount(long offset) {
    long h = hash(checkOffset(offset));
    Stripe s = stripeOf(h);
    s.lock();
    try {
      int i = s.findLocked(offset, h);
      return i < 0 ? 0 : s.pins[i];
    } finally {
      s.unlock();
    }
  }

  /** Whether a free of {@code offset} waits for its last unpin. */
  public boolean isFreeDeferred(long offset) {
    long h = hash(checkOffset(offset));
    Stripe s = stripeOf(h);
    s.lock();
    try {
      int i = s.findLocked(offset, h);
      return i >= 0 && s.deferred[i] != NO_FREE;
    } finally {
      s.unlock();
    }
  }

  /** Offsets with at least one pin; each stripe is read under its lock, the sum is not atomic across stripes. */
  public int pinnedSlots() {
    int n = 0;
    for (Stripe s : stripes) {
      s.lock();
      try {
        n += s.size;
      } finally {
        s.unlock();
      }
    }
    return n;
  }

  /** Frees waiting for their last unpin; summed over stripes like {@link #pinnedSlots()}. */
  public int deferredFrees() {
    int n = 0;
    for (Stripe s : stripes) {
      s.lock();
      try {
        n += s.deferredCount;
      } finally {
        s.unlock();
      }
    }
    return n;
  }

  private Stripe stripeOf(long hash) {
    return stripeShift == 64 ? stripes[0] : stripes[(int) (hash >>> stripeShift)];
  }

  private static long checkOffset(long offset) {
    if (offset < 0) {
      throw new IllegalArgumentException("offset " + offset + " is negative");
    }
    return offset;
  }

  /** A 64-bit finaliser (variant of MurmurHash3's fmix64): offsets are multiples of 256, so low bits alone collide. */
  static long hash(long offset) {
    long h = offset;
    h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccdL;
    h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return h ^ (h >>> 33);
  }

  /**
   * One open-addressing table. Guarded by its own lock: every field but {@code locked} is read and written only
   * between {@link #lock} and {@link #unlock}. The stripe is a {@link Lock} so that Error Prone's {@code GuardedBy}
   * analysis sees the {@code unlock()} in each caller's {@code finally} and checks every access to the fields: the
   * calls go to this final class, so the interface costs nothing; only {@link #lock} and {@link #unlock} are used. Invariants: {@code keys[i] == EMPTY} iff {@code pins[i] == 0}; an entry with a
   * deferred free has {@code pins > 0}; {@code size <= keys.length / 2}.
   */
  private static final class Stripe implements Lock {
    /** Spins before each yield while the lock is taken: longer than any section it guards, so yields are rare. */
    private static final int SPINS_PER_YIELD = 64;
    private static final VarHandle LOCKED;

    static {
      try {
        LOCKED = MethodHandles.lookup().findVarHandle(Stripe.class, "locked", int.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    /** 1 while a thread holds the stripe, else 0; written by {@link #lock} (CAS) and {@link #unlock}. */
    @SuppressWarnings("unused") // accessed through LOCKED
    private volatile int locked;

    @GuardedBy("this")
    long[] keys = newKeys(INITIAL_TABLE);
    @GuardedBy("this")
    int[] pins = new int[INITIAL_TABLE];
    @GuardedBy("this")
    int[] deferred = newDeferred(INITIAL_TABLE);
    @GuardedBy("this")
    int size;
    @GuardedBy("this")
    int deferredCount;

    /** Takes the stripe: its fields written by the previous holder before {@link #unlock} are visible after. */
    @Override
    @SuppressWarnings("ThreadPriorityCheck") // the yield lets a descheduled holder run (see the class notes)
    public void lock() {
      int spins = 0;
      while (!LOCKED.compareAndSet(this, 0, 1)) {
        if (++spins % SPINS_PER_YIELD == 0) {
          Thread.yield();
        } else {
          Thread.onSpinWait();
        }
      }
    }

    /** Gives the stripe back; only its holder may call it. */
    @Override
    public void unlock() {
      LOCKED.setRelease(this, 0);
    }

    @Override
    public boolean tryLock() {
      return LOCKED.compareAndSet(this, 0, 1);
    }

    /** Unsupported: no caller waits interruptibly or with a timeout for a section of a few dozen instructions. */
    @Override
    public void lockInterruptibly() {
      throw new UnsupportedOperationException();
    }

    /** Unsupported, as {@link #lockInterruptibly}. */
    @Override
    public boolean tryLock(long time, TimeUnit unit) {
      throw new UnsupportedOperationException();
    }

    /** Unsupported: nothing waits on a stripe. */
    @Override
    public Condition newCondition() {
      throw new UnsupportedOperationException();
    }

    private static long[] newKeys(int n) {
      long[] k = new long[n];
      Arrays.fill(k, EMPTY);
      return k;
    }

    private static int[] newDeferred(int n) {
      int[] d = new int[n];
      Arrays.fill(d, NO_FREE);
      return d;
    }

    /** Index of {@code offset}'s entry, or -1. */
    @GuardedBy("this")
    int findLocked(long offset, long h) {
      int mask = keys.length - 1;
      for (int i = (int) h & mask; ; i = (i + 1) & mask) {
        long k = keys[i];
        if (k == offset) {
          return i;
        }
        if (k == EMPTY) {
          return -1;
        }
      }
    }

    @GuardedBy("this")
    void pinLocked(long offset, long h) {
      int mask = keys.length - 1;
      int i = (int) h & mask;
      while (true) {
        long k = keys[i];
        if (k == offset) {
          if (pins[i] == Integer.MAX_VALUE) {
            throw new IllegalStateException("offset " + offset + " holds too many pins");
          }
          pins[i]++;
          return;
        }
        if (k == EMPTY) {
          break;
        }
        i = (i + 1) & mask;
      }
      if ((size + 1) * 2 > keys.length) {
        growLocked();
        mask = keys.length - 1;
        i = (int) h & mask;
        while (keys[i] != EMPTY) {
          i = (i + 1) & mask;
        }
      }
      keys[i] = offset;
      pins[i] = 1;
      size++;
    }

    /** Removes entry {@code i}, shifting back later entries of the same probe run so no tombstone is needed. */
    @GuardedBy("this")
    void removeAtLocked(int i) {
      int mask = keys.length - 1;
      int hole = i;
      int j = i;
      while (true) {
        j = (j + 1) & mask;
        long k = keys[j];
        if (k == EMPTY) {
          break;
        }
        int home = (int) hash(k) & mask;
        // The entry at j may fill the hole iff its home is not cyclically within (hole, j].
        boolean stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (!stays) {
          keys[hole] = k;
          pins[hole] = pins[j];
          deferred[hole] = deferred[j];
          hole = j;
        }
      }
      keys[hole] = EMPTY;
      pins[hole] = 0;
      deferred[hole] = NO_FREE;
      size--;
    }

    @GuardedBy("this")
    private void growLocked() {
      long[] oldKeys = keys;
      int[] oldPins = pins;
      int[] oldDeferred = deferred;
      int n = oldKeys.length * 2;
      if (n <= 0) {
        throw new IllegalStateException("pin table cannot grow past " + oldKeys.length + " slots");
      }
      keys = newKeys(n);
      pins = new int[n];
      deferred = newDeferred(n);
      int mask = n - 1;
      for (int j = 0; j < oldKeys.length; j++) {
        long k = oldKeys[j];
        if (k != EMPTY) {
          int i = (int) hash(k) & mask;
          while (keys[i] != EMPTY) {
            i = (i + 1) & mask;
          }
          keys[i] = k;
          pins[i] = oldPins[j];
          deferred[i] = oldDeferred[j];
        }
      }
    }
  }
}
