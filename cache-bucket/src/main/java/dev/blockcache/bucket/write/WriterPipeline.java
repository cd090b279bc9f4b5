package dev.blockcache.bucket.write;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded write path of the L2: {@code cacheBlock} hands a block to one of {@code threads} queues of
 * {@code queueLength} entries (chosen by key hash, so one key always goes to the same writer) and returns; a writer
 * thread per queue takes batches and passes them to a {@link BlockWriter}. Writers wake per batch, not per block: see
 * {@link WriterLane}.
 *
 * <h2>Bounds and failure</h2>
 * Nothing grows without bound: at most {@code threads × queueLength} blocks wait, plus one batch per writer in
 * flight. A full queue fails the submission at once, or after waiting up to {@code waitMillis}
 * ({@code hbase.bucketcache.queue.addition.waittime}); the cache counts it as a failed insertion — unlike HBase,
 * never silently. Every block a queue accepted passes through the {@link BlockWriter} exactly once, also when the
 * pipeline closes (see {@link #close}).
 *
 * <h2>Lifecycle</h2>
 * The constructor starts no thread; {@link #start} does (the cache calls it before handing itself out) and
 * {@link #close} stops them after draining. {@link #awaitWritten} is the bounded wait for tests and benchmarks; the
 * waiting thread writes what the writers have not taken yet itself (see {@link WriterLane#helpDrain}). A pipeline
 * never started (tests in the cache's package step it by hand) writes on the thread that waits.
 *
 * <p>Thread-safety: {@link #submit} and {@link #awaitWritten} from any thread; {@link #start} and {@link #close} from
 * the owner.
 */
public final class WriterPipeline implements AutoCloseable {
  private final List<WriterLane> lanes;
  private final long waitMillis;
  private final ReentrantLock progressLock = new ReentrantLock();
  private final Condition progress = progressLock.newCondition();
  /** Threads in {@link #awaitWritten}: a finished batch signals only when some thread waits. */
  private final AtomicInteger waiters = new AtomicInteger();
  @GuardedBy("this")
  private final List<Thread> threads = new ArrayList<>();

  public WriterPipeline(int threads, int queueLength, long waitMillis, BlockWriter writer) {
    if (threads < 1 || queueLength < 1 || waitMillis < 0) {
      throw new IllegalArgumentException(
          "threads " + threads + ", queueLength " + queueLength + ", waitMillis " + waitMillis);
    }
    List<WriterLane> list = new ArrayList<>(threads);
    for (int i = 0; i < threads; i++) {
      list.add(new WriterLane(queueLength, writer, this::signalProgress));
    }
    this.lanes = List.copyOf(list);
    this.waitMillis = waitMillis;
  }

  /** Daemon threads named {@code prefix} followed by 1, 2, ... in the order they are made. */
  public static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** Starts one writer thread per queue, made by {@code factory}. */
  public synchronized void start(ThreadFactory factory) {
    if (!threads.isEmpty()) {
      throw new IllegalStateException("writer pipeline already started");
    }
    for (WriterLane lane : lanes) {
      threads.add(factory.newThread(lane::runWriter));
    }
    threads.forEach(Thread::start);
  }

  /** Queues {@code write} for its writer, waiting for room as configured; see {@link #submit(PendingWrite, QueueWait)}. */
  public boolean submit(PendingWrite write) {
    return submit(write, QueueWait.CONFIGURED);
  }

  /**
   * Queues {@code write} for its writer; {@code wait} says whether a full queue may be waited on.
   *
   * @return false if the queue was full (and stayed full for the configured wait, when {@code wait} allows one); the
   *     block then never reaches the {@link BlockWriter} and the caller still holds it
   */
  public boolean submit(PendingWrite write, QueueWait wait) {
    WriterLane lane = laneFor(write);
    boolean queued;
    try {
      queued = lane.offer(write, wait == QueueWait.NONE ? 0 : waitMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    if (queued && lane.stopping()) {
      lane.drainNow(); // queued after close's last drain, or while it ran: nobody else would write it
    }
    return queued;
  }

  private WriterLane laneFor(PendingWrite write) {
    long h = write.key().hash64();
    return lanes.get((int) Long.remainderUnsigned(h ^ (h >>> 32), lanes.size()));
  }

  private void signalProgress() {
    if (waiters.get() == 0) {
      return;
    }
    progressLock.lock();
    try {
      progress.signalAll();
    } finally {
      progressLock.unlock();
    }
  }

  /**
   * Waits until every block accepted before this call has been through its writer (written, or dropped and counted),
   * or until {@code timeout} passed. Blocks accepted during the wait are not waited for. A pipeline whose threads were
   * never started writes the queued blocks on the calling thread instead.
   *
   * @return true if every such block was through its writer in time
   * @throws InterruptedException if the calling thread is interrupted while waiting (its flag is then cleared)
   */
  public boolean awaitWritten(Duration timeout) throws InterruptedException {
    if (threadsStarted()) {
      return awaitWriters(timeout);
    }
    drainNow();
    return true;
  }

  private synchronized boolean threadsStarted() {
    return !threads.isEmpty();
  }

  private boolean awaitWriters(Duration timeout) throws InterruptedException {
    long[] targets = new long[lanes.size()];
    for (int i = 0; i < targets.length; i++) {
      targets[i] = lanes.get(i).accepted();
    }
    for (WriterLane lane : lanes) {
      lane.helpDrain();
      lane.flush(); // whatever the writer holds or was queued meanwhile: no gathering while someone waits
    }
    long remaining = timeout.toNanos();
    waiters.incrementAndGet();
    progressLock.lockInterruptibly();
    try {
      while (!finished(targets)) {
        if (remaining <= 0) {
          return false;
        }
        remaining = progress.awaitNanos(remaining);
      }
      return true;
    } finally {
      progressLock.unlock();
      waiters.decrementAndGet();
    }
  }

  private boolean finished(long[] targets) {
    for (int i = 0; i < targets.length; i++) {
      if (!lanes.get(i).finishedAtLeast(targets[i])) {
        return false;
      }
    }
    return true;
  }

  /** Writes every queued block on the calling thread; returns how many (for tests that step the pipeline). */
  public int drainNow() {
    int written = 0;
    for (WriterLane lane : lanes) {
      written += lane.drainNow();
    }
    return written;
  }

  /** Blocks waiting in the queues now. */
  public int queuedCount() {
    int total = 0;
    for (WriterLane lane : lanes) {
      total += lane.queued();
    }
    return total;
  }

  /** The most blocks that can wait at once. */
  public int queueCapacity() {
    return lanes.size() * lanes.get(0).capacity();
  }

  /**
   * Lets the writers finish what is queued, stops them, and passes anything queued meanwhile through the writer on
   * the calling thread. Idempotent; an interrupt while joining is kept for the caller.
   */
  @Override
  public synchronized void close() {
    lanes.forEach(WriterLane::stop);
    boolean interrupted = false;
    for (Thread t : threads) {
      while (t.isAlive()) {
        try {
          t.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    drainNow();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
