package dev.blockcache.testing;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.TimeUnit;

/**
 * One full collection, and a wait until the JVM's reference handler has started enqueuing the references that
 * collection cleared: a leak detector polled after {@link #collect} sees the buffers that were unreachable when it was
 * called. One collection suffices because no block or buffer of ours is reachable only through a finalizer; a
 * reference the handler enqueues a moment after the sentinel is seen by the next poll (the next test's check).
 *
 * <p>Thread-safety: safe for concurrent use; each call collects once.
 */
public final class CollectedGarbage {
  private static final long SENTINEL_WAIT_MS = TimeUnit.SECONDS.toMillis(10);

  private CollectedGarbage() {}

  /** Runs {@code System.gc()} and waits (at most 10 s) for a reference it cleared to be enqueued. */
  public static void collect() {
    ReferenceQueue<Object> queue = new ReferenceQueue<>();
    WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
    System.gc();
    try {
      if (queue.remove(SENTINEL_WAIT_MS) == null) {
        throw new AssertionError("System.gc() cleared no weak reference within " + SENTINEL_WAIT_MS
            + " ms: is -XX:+DisableExplicitGC set for the test JVM? The leak check depends on it");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for the collection's references", e);
    } finally {
      Reference.reachabilityFence(sentinel);
    }
  }
}
