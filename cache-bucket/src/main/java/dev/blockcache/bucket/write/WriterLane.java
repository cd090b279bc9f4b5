package dev.blockcache.bucket.write;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One writer queue of a {@link WriterPipeline} and the thread that empties it, waking per batch rather than per block.
 *
 * <h2>Design notes</h2>
 * A writer that is woken for every block costs the submitter a thread wake-up (a futex call) per block and the writer
 * a context switch per block: on a small machine that, not the copying, bounds how fast a burst reaches the slots.
 * So a writer sleeps in three states:
 * <ol>
 *   <li><b>IDLE</b>: its queue was empty; parked until woken. The first submitter that finds it idle moves it to
 *       GATHERING and wakes it: one wake-up per burst, not per block.</li>
 *   <li><b>GATHERING</b>: woken, it lets blocks gather for up to {@link #GATHER_NANOS} before it drains them, so that
 *       it writes a batch instead of a single block. A submitter that sees {@link #wakeAt} blocks waiting, or finds
 *       the queue full, ends the gathering at once (moving it to WRITING), so a full queue is never left waiting on
 *       a timer; so does {@link #flush()}.</li>
 *   <li><b>WRITING</b>: drains up to {@link #MAX_BATCH} blocks at a time and writes them until the queue is empty,
 *       without being woken by anyone.</li>
 * </ol>
 * The idle hand-off is a Dekker pair: the writer publishes IDLE and then looks at the queue; a submitter puts its
 * block in the queue and then looks at the state. Both are synchronisation actions, so at least one of them sees the
 * other's write and no block is left in the queue of a parked writer.
 *
 * <h2>Counters and the batch lock</h2>
 * {@link #accepted} counts blocks the queue took and {@link #finished} blocks passed to the {@link BlockWriter}. A
 * batch is taken from the queue and written under {@link #batchLock}, by the writer thread or by a thread that helps
 * ({@link #helpDrain}, from a waiter) or drains ({@link #drainNow}); the queue is FIFO and batches finish one at a
 * time in the order they were taken, so {@code finished >= n} means the first {@code n} accepted blocks are done.
 *
 * <p>Thread-safety: {@link #offer} from any thread; {@link #runWriter} on the lane's one writer thread;
 * {@link #helpDrain} and {@link #drainNow} from any thread (batches are serialised by the batch lock).
 */
final class WriterLane {
  /** Most blocks a writer takes from its queue per batch: enough to amortise the wake-up, small enough to be fair. */
  static final int MAX_BATCH = 64;
  /**
   * Nanoseconds a woken writer lets blocks gather before draining: 50 µs is about the shortest timed park the OS
   * honours, long enough for a burst to fill a batch and short next to the time a batch takes to write.
   */
  static final long GATHER_NANOS = 50_000;

  private static final int IDLE = 0;
  private static final int GATHERING = 1;
  private static final int WRITING = 2;

  private final ArrayBlockingQueue<PendingWrite> queue;
  /** Blocks waiting at which a submitter ends a writer's gathering: half the queue, at most one batch. */
  private final int wakeAt;
  private final BlockWriter writer;
  private final Runnable progress;
  private final AtomicInteger state = new AtomicInteger(WRITING);
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong finished = new AtomicLong();
  /** Blocks the writer took out of the queue (written or being written). */
  private final AtomicLong taken = new AtomicLong();
  /** Held while one batch is taken and written: see "Counters and the batch lock". */
  private final ReentrantLock batchLock = new ReentrantLock();
  private volatile Thread thread;
  private volatile boolean stopping;

  /** {@code progress} runs after every batch, on the thread that wrote it. */
  WriterLane(int queueLength, BlockWriter writer, Runnable progress) {
    this.queue = new ArrayBlockingQueue<>(queueLength);
    this.wakeAt = Math.max(1, Math.min(MAX_BATCH, queueLength / 2));
    this.writer = writer;
    this.progress = progress;
  }

  /**
   * Queues {@code write}, waiting up to {@code waitMillis} for room (0: not at all).
   *
   * @return false if the queue stayed full
   */
  boolean offer(PendingWrite write, long waitMillis) throws InterruptedException {
    boolean queued = queue.offer(write);
    if (!queued && waitMillis > 0) {
      wake(); // a gathering writer with a full queue: let it drain rather than wait for its timer
      queued = queue.offer(write, waitMillis, TimeUnit.MILLISECONDS);
    }
    if (!queued) {
      wake();
      return false;
    }
    accepted.incrementAndGet();
    int s = state.get();
    if (s == IDLE) {
      if (state.compareAndSet(IDLE, GATHERING)) {
        LockSupport.unpark(thread);
      }
    } else if (s == GATHERING && accepted.get() - taken.get() >= wakeAt) {
      wake();
    }
    return true;
  }

  /** Ends an idle or gathering writer's sleep now (a waiter wants the queue written). */
  void flush() {
    wake();
  }

  private void wake() {
    int s = state.get();
    if (s != WRITING && state.compareAndSet(s, WRITING)) {
      LockSupport.unpark(thread);
    }
  }

  /** The writer thread's loop: runs until {@link #stop()}, then writes what is still queued and returns. */
  void runWriter() {
    thread = Thread.currentThread();
    List<PendingWrite> batch = new ArrayList<>(MAX_BATCH);
    while (true) {
      if (writeBatch(batch) > 0) {
        continue;
      }
      if (stopping) {
        return;
      }
      state.set(IDLE);
      if (!queue.isEmpty() || stopping) {
        state.set(WRITING);
        continue;
      }
      while (state.get() == IDLE && !stopping) {
        LockSupport.park(this);
      }
      if (state.get() == GATHERING && accepted.get() - taken.get() < wakeAt) {
        LockSupport.parkNanos(this, GATHER_NANOS);
      }
      state.set(WRITING);
    }
  }

  /** Takes one batch and writes it; returns its size (0: the queue was empty). */
  private int writeBatch(List<PendingWrite> batch) {
    batchLock.lock();
    try {
      return writeBatchLocked(batch);
    } finally {
      batchLock.unlock();
    }
  }

  @GuardedBy("batchLock")
  private int writeBatchLocked(List<PendingWrite> batch) {
    int n = queue.drainTo(batch, MAX_BATCH);
    if (n == 0) {
      return 0;
    }
    taken.addAndGet(n);
    try {
      writer.write(batch);
    } finally {
      batch.clear();
      finished.addAndGet(n);
      progress.run();
    }
    return n;
  }

  /**
   * Writes queued blocks on the calling thread while the writer thread is not writing (idle, or gathering), instead
   * of waking it and waiting: a thread that waits for its blocks might as well write them. Stops as soon as the
   * writer holds the batch lock or the queue is empty.
   */
  void helpDrain() {
    List<PendingWrite> batch = null;
    while (!queue.isEmpty() && batchLock.tryLock()) {
      try {
        if (batch == null) {
          batch = new ArrayList<>(MAX_BATCH);
        }
        if (writeBatchLocked(batch) == 0) {
          return;
        }
      } finally {
        batchLock.unlock();
      }
    }
  }

  /** Writes every queued block on the calling thread; returns how many. */
  int drainNow() {
    List<PendingWrite> batch = new ArrayList<>(MAX_BATCH);
    int written = 0;
    int n;
    while ((n = writeBatch(batch)) > 0) {
      written += n;
    }
    return written;
  }

  /** Blocks accepted so far: the target {@link #finishedAtLeast} waits for. */
  long accepted() {
    return accepted.get();
  }

  boolean finishedAtLeast(long target) {
    return finished.get() >= target;
  }

  /** Asks the writer to stop once its queue is empty, and wakes it. */
  void stop() {
    stopping = true;
    state.set(WRITING);
    LockSupport.unpark(thread);
  }

  /** Whether {@link #stop()} was called: a block queued after it must be drained by its submitter. */
  boolean stopping() {
    return stopping;
  }

  int queued() {
    return queue.size();
  }

  int capacity() {
    return queue.size() + queue.remainingCapacity();
  }
}
