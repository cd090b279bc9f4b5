package dev.blockcache.stats;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * A fixed number of counters that every thread increments in a cell of its own, with no atomic instruction: the
 * hit and miss counts of a cache, incremented on every lookup.
 *
 * <h2>Design notes</h2>
 * <ul>
 *   <li><b>Why not {@code LongAdder}.</b> An uncontended {@code LongAdder} still compare-and-sets its base on each
 *       increment. Besides its own cost, an atomic instruction makes the processor finish every earlier load before
 *       any later one, so a lookup's cache misses (the index, the block's bytes) could not overlap with the next
 *       lookup's; a lookup that counts with one is measurably slower than the same lookup without it. Here a thread
 *       adds to a cell of its own with a plain read and an opaque write: only its owner writes a cell, so no
 *       increment is lost.</li>
 *   <li><b>Finding the cell.</b> A thread's cell sits in a small table indexed by the thread's id, which a
 *       thread claims at its first increment if that slot is free or its owner has ended; the increment then costs
 *       the thread's id, one table load and an id comparison. That is a few instructions, where a
 *       {@link ThreadLocal} lookup compiles to hundreds of bytes of machine code: a cache's get that counts its
 *       hit must stay small enough for the JIT to inline it into its caller ({@code InlineSmallCode}), which is
 *       what lets the caller's key and the returned view stay off the heap. A thread whose slot another live
 *       thread holds finds its cell through a {@link ThreadLocal} instead (thread ids are unique, so two threads
 *       never share a cell either way).</li>
 *   <li><b>Sums.</b> {@link #sums} adds every registered cell to the counts of cells already retired, under the
 *       registry's lock; a cell's counter read while its owner writes it gives the value before or after the
 *       write (opaque accesses of a {@code long} are never torn). As with {@code LongAdder}, counters read at one
 *       sum are not a snapshot of one instant.</li>
 *   <li><b>Threads that end.</b> A cell is registered at its thread's first increment. When the cells registered
 *       reach twice the number left by the last sweep, cells whose thread has ended are folded into the retired
 *       counts and dropped (a thread that {@link Thread#isAlive() is not alive} writes no more, and its writes
 *       happen-before that observation). So a pool that replaces its threads keeps the registry at about twice
 *       its live threads, and a sweep's cost is spread over as many registrations as it scans.</li>
 *   <li><b>Virtual threads</b> (Java 21 and later) count in shared {@code LongAdder}s instead: an engine that
 *       runs a virtual thread per request would otherwise register a cell per request.</li>
 * </ul>
 *
 * <p>Thread-safety: safe for concurrent use. {@link #increment} takes no lock and allocates nothing once its thread
 * has a cell; registering a cell, claiming a table slot and {@link #sums} take this object's registry lock, which is
 * a leaf (nothing else is locked under it). Table slots are written under that lock and read without it: a
 * {@link Cell}'s fields are final, so a reader that sees a cell sees it whole.
 */
final class ThreadCounters {
  private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

  /** {@code Thread.isVirtual()} where the runtime has it (Java 21+), else null: this library targets Java 17. */
  private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

  /** Slots of {@link #byThreadId}: a power of two. */
  static final int ID_SLOTS = 256;

  private final int width;
  /** Cells by {@code threadId & (ID_SLOTS - 1)}; a slot is written under the registry lock. */
  private final Cell[] byThreadId = new Cell[ID_SLOTS];
  /** The counts of virtual threads. */
  private final LongAdder[] shared;
  @SuppressWarnings("ThreadLocalUsage") // a cell per thread of this counter set: per instance by design
  private final ThreadLocal<Cell> cells = new ThreadLocal<>();
  /** Guards {@link #registered}, {@link #registeredCount}, {@link #sweepAt} and {@link #retired}. */
  private final Object registry = new Object();
  @GuardedBy("registry")
  private Cell[] registered = new Cell[4];
  @GuardedBy("registry")
  private int registeredCount;
  /** A sweep runs when {@link #registeredCount} reaches this: twice what the last sweep left, at least 4. */
  @GuardedBy("registry")
  private int sweepAt = 4;
  /** Counts of the cells dropped by sweeps. */
  @GuardedBy("registry")
  private final long[] retired;

  /** {@code width} counters, all 0. */
  ThreadCounters(int width) {
    if (width < 1) {
      throw new IllegalArgumentException("width " + width + " is not positive");
    }
    this.width = width;
    this.retired = new long[width];
    this.shared = new LongAdder[width];
    for (int i = 0; i < width; i++) {
      shared[i] = new LongAdder();
    }
  }

  /** Adds one to {@code counter} (in {@code [0, width)}) for the calling thread. */
  void increment(int counter) {
    long id = Thread.currentThread().getId();
    Cell cell = byThreadId[slotOf(id)];
    if (cell != null && cell.ownerId == id) {
      add(cell, counter);
    } else {
      incrementWithoutSlot(counter);
    }
  }

  /** {@link #increment} for a thread without a table slot: a new thread, a virtual one, or one whose slot is held. */
  private void incrementWithoutSlot(int counter) {
    Cell cell = cells.get();
    if (cell == null) {
      if (isVirtual(Thread.currentThread())) {
        shared[counter].increment();
        return;
      }
      cell = register();
    }
    add(cell, counter);
  }

  /** The {@link #byThreadId} slot of the thread whose id is {@code threadId}. */
  private static int slotOf(long threadId) {
    return (int) threadId & (ID_SLOTS - 1);
  }

  private static void add(Cell cell, int counter) {
    long[] counts = cell.counts;
    COUNTS.setOpaque(counts, counter, (long) COUNTS.getOpaque(counts, counter) + 1);
  }

  /** Every counter's total over all threads, indexed as {@link #increment}'s {@code counter}. */
  long[] sums() {
    synchronized (registry) {
      long[] sums = retired.clone();
      for (int c = 0; c < registeredCount; c++) {
        addTo(sums, registered[c].counts);
      }
      for (int i = 0; i < width; i++) {
        sums[i] += shared[i].sum();
      }
      return sums;
    }
  }

  /** Cells held for threads now: live threads' and, until the next sweep, ended threads'. */
  int cells() {
    synchronized (registry) {
      return registeredCount;
    }
  }

  private Cell register() {
    Cell cell = new Cell(width, Thread.currentThread());
    synchronized (registry) {
      if (registeredCount == sweepAt) {
        sweepEndedLocked();
      }
      if (registeredCount == registered.length) {
        registered = Arrays.copyOf(registered, registered.length * 2);
      }
      registered[registeredCount++] = cell;
      int slot = slotOf(cell.ownerId);
      Cell holder = byThreadId[slot];
      if (holder == null || holder.ownerEnded()) {
        byThreadId[slot] = cell; // a racy read sees null, the old cell or this one, each whole (final fields)
      }
    }
    cells.set(cell);
    return cell;
  }

  /** Folds the cells of ended threads into {@link #retired}; under the registry lock. */
  @GuardedBy("registry")
  private void sweepEndedLocked() {
    int kept = 0;
    for (int c = 0; c < registeredCount; c++) {
      Cell cell = registered[c];
      if (cell.ownerEnded()) {
        addTo(retired, cell.counts);
        int slot = slotOf(cell.ownerId);
        if (byThreadId[slot] == cell) {
          byThreadId[slot] = null;
        }
      } else {
        registered[kept++] = cell;
      }
    }
    Arrays.fill(registered, kept, registeredCount, null);
    registeredCount = kept;
    sweepAt = Math.max(4, kept * 2);
  }

  private static MethodHandle isVirtualHandle() {
    try {
      return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null; // a runtime without virtual threads
    }
  }

  private static boolean isVirtual(Thread thread) {
    if (IS_VIRTUAL == null) {
      return false;
    }
    try {
      return (boolean) IS_VIRTUAL.invokeExact(thread);
    } catch (Throwable e) {
      throw new IllegalStateException("Thread.isVirtual failed", e);
    }
  }

  private static void addTo(long[] sums, long[] counts) {
    for (int i = 0; i < sums.length; i++) {
      sums[i] += (long) COUNTS.getOpaque(counts, i);
    }
  }

  /** One thread's counters; only that thread writes them. */
  private static final class Cell {
    final long[] counts;
    /** The owner's {@link Thread#getId()}: unique in the JVM, never reused. */
    final long ownerId;
    /** Weak, so that a cell never keeps an ended thread's object alive. */
    private final WeakReference<Thread> owner;

    Cell(int width, Thread owner) {
      this.counts = new long[width];
      this.ownerId = owner.getId();
      this.owner = new WeakReference<>(owner);
    }

    boolean ownerEnded() {
      Thread t = owner.get();
      return t == null || !t.isAlive();
    }
  }
}
