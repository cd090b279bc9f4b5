package dev.blockcache.bucket.write;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded write path of the L2: {@code cacheBlock} hands a block to one of {@code threads} queues of
 * {@code queueLength} entries (chosen by key hash, so one key always goes to the same writer) and returns; a writer
 * thread per queue takes batches and passes them to a {@link BlockWriter}.
 *
 * <h2>Bounds and failure</h2>
 * Nothing grows without bound: at most {@code threads × queueLength} blocks wait, plus one batch per writer in
 * flight. A full queue fails the submission at once, or after waiting up to {@code waitMillis}
 * ({@code hbase.bucketcache.queue.addition.waittime}); the cache counts it as a failed insertion — unlike HBase,
 * never silently.
 *
 * <h2>Lifecycle and tests</h2>
 * The constructor starts no thread; {@link #start} does and {@link #close} stops them after draining. Tests drive the
 * pipeline without sleeping: {@link #drainNow()} runs every queued block through the writer on the calling thread,
 * and {@link #awaitIdle()} blocks until every block submitted before the call has been written (when no other thread
 * submits meanwhile).
 *
 * <p>Thread-safety: {@link #submit} from any thread; lifecycle methods from the owner.
 */
public final class WriterPipeline implements AutoCloseable {
  /** Most blocks a writer takes from its queue per batch: enough to amortise the wake-up, small enough to be fair. */
  private static final int MAX_BATCH = 64;

  private final List<ArrayBlockingQueue<PendingWrite>> queues;
  private final BlockWriter writer;
  private final long waitMillis;
  private final AtomicLong submitted = new AtomicLong();
  private final AtomicLong completed = new AtomicLong();
  private final ReentrantLock progressLock = new ReentrantLock();
  private final Condition progress = progressLock.newCondition();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running;

  public WriterPipeline(int threads, int queueLength, long waitMillis, BlockWriter writer) {
    if (threads < 1 || queueLength < 1 || waitMillis < 0) {
      throw new IllegalArgumentException(
          "threads " + threads + ", queueLength " + queueLength + ", waitMillis " + waitMillis);
    }
    List<ArrayBlockingQueue<PendingWrite>> list = new ArrayList<>(threads);
    for (int i = 0; i < threads; i++) {
      list.add(new ArrayBlockingQueue<>(queueLength));
    }
    this.queues = List.copyOf(list);
    this.writer = writer;
    this.waitMillis = waitMillis;
  }

  /** Starts one writer thread per queue, made by {@code factory}. */
  public synchronized void start(ThreadFactory factory) {
    if (running || !threads.isEmpty()) {
      throw new IllegalStateException("writer pipeline already started");
    }
    running = true;
    for (ArrayBlockingQueue<PendingWrite> queue : queues) {
      Thread t = factory.newThread(() -> runWriter(queue));
      threads.add(t);
      t.start();
    }
  }

  /**
   * Queues {@code write} for its writer, waiting for room as configured.
   *
   * @return false if the queue stayed full for the configured wait (the caller counts a failed insertion)
   */
  public boolean submit(PendingWrite write) {
    return submit(write, QueueWait.CONFIGURED);
  }

  /**
   * Queues {@code write} for its writer; {@code wait} says whether a full queue may be waited on.
   *
   * @return false if the queue was full (and stayed full for the configured wait, when {@code wait} allows one)
   */
  public boolean submit(PendingWrite write, QueueWait wait) {
    ArrayBlockingQueue<PendingWrite> queue = queueFor(write);
    submitted.incrementAndGet();
    boolean queued;
    if (waitMillis == 0 || wait == QueueWait.NONE) {
      queued = queue.offer(write);
    } else {
      try {
        queued = queue.offer(write, waitMillis, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        queued = false;
      }
    }
    if (!queued) {
      markCompleted(1);
    }
    return queued;
  }

  private ArrayBlockingQueue<PendingWrite> queueFor(PendingWrite write) {
    long h = write.key().hash64();
    return queues.get((int) Long.remainderUnsigned(h ^ (h >>> 32), queues.size()));
  }

  private void runWriter(ArrayBlockingQueue<PendingWrite> queue) {
    List<PendingWrite> batch = new ArrayList<>(MAX_BATCH);
    while (running || !queue.isEmpty()) {
      try {
        PendingWrite first = queue.poll(100, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, MAX_BATCH - 1);
        writeBatch(batch);
      } catch (InterruptedException e) {
        if (!running) {
          break;
        }
      }
    }
  }

  private void writeBatch(List<PendingWrite> batch) {
    try {
      writer.write(batch);
    } finally {
      markCompleted(batch.size());
      batch.clear();
    }
  }

  private void markCompleted(int count) {
    completed.addAndGet(count);
    progressLock.lock();
    try {
      progress.signalAll();
    } finally {
      progressLock.unlock();
    }
  }

  /** Writes every queued block on the calling thread; returns how many it wrote. */
  public int drainNow() {
    int written = 0;
    List<PendingWrite> batch = new ArrayList<>(MAX_BATCH);
    for (ArrayBlockingQueue<PendingWrite> queue : queues) {
      while (queue.drainTo(batch, MAX_BATCH) > 0) {
        written += batch.size();
        writeBatch(batch);
      }
    }
    return written;
  }

  /**
   * Blocks until every block submitted before this call has been written (or refused), provided no other thread
   * submits meanwhile: the wait is for as many completions as there were submissions, so with concurrent submitters
   * a later block finishing first can stand in for an earlier one still being written. (Tests and benchmarks call
   * it between phases; a per-queue fence would make it exact under concurrency.) With no writer threads started,
   * drains on the calling thread instead.
   */
  public void awaitIdle() throws InterruptedException {
    if (threads.isEmpty()) {
      drainNow();
      return;
    }
    long target = submitted.get();
    progressLock.lock();
    try {
      while (completed.get() < target) {
        progress.await();
      }
    } finally {
      progressLock.unlock();
    }
  }

  /** Blocks waiting in the queues now. */
  public int queuedCount() {
    int total = 0;
    for (ArrayBlockingQueue<PendingWrite> queue : queues) {
      total += queue.size();
    }
    return total;
  }

  /** The most blocks that can wait at once. */
  public int queueCapacity() {
    return queues.size() * (queues.get(0).size() + queues.get(0).remainingCapacity());
  }

  /** Lets the writers finish what is queued, then stops them. Idempotent. */
  @Override
  public synchronized void close() {
    running = false;
    boolean interrupted = false;
    for (Thread t : threads) {
      while (t.isAlive()) {
        try {
          t.join();
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
