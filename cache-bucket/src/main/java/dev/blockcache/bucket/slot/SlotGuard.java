package dev.blockcache.bucket.slot;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.alloc.SlotPins;
import dev.blockcache.bucket.engine.IoEngine;
import dev.blockcache.buffer.ViewOwner;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Owns the engine's lifetime for one {@link BucketCache}: pins slots for the reads and writes that touch them, frees
 * removed slots once nobody pins them, refuses new pins once the cache is closed, and closes the engine when the cache
 * is closed and the last pin is gone, whichever comes last.
 *
 * <h2>Pin, then check</h2>
 * {@link #pin} adds the pin first and looks at the closed flag second; {@link #close} sets the flag first and counts
 * the pins second. So either a pin sees the cache closed (and takes itself back), or the close sees the pin (and the
 * engine is closed by that pin's {@link #unpin} instead): no read or write touches a closed engine's memory.
 *
 * <p>Thread-safety: safe for concurrent use. {@link #free} and the unpin that performs a deferred free call the
 * allocator (through {@link SlotPins}) with no lock of this class held.
 */
public final class SlotGuard implements ViewOwner {
  private final IoEngine engine;
  private final SlotPins pins;
  private volatile boolean closed;
  private final AtomicBoolean engineReleased = new AtomicBoolean();

  public SlotGuard(IoEngine engine, SlotPins pins) {
    this.engine = engine;
    this.pins = pins;
  }

  /** The engine; its memory may be touched only under a pin of this guard (memory engines) or before close. */
  public IoEngine engine() {
    return engine;
  }

  /**
   * Pins {@code offset} so that neither the slot nor the engine's memory goes away until {@link #unpin}.
   *
   * @return false (nothing pinned) if the cache is closed
   */
  public boolean pin(long offset) {
    pins.pin(offset);
    if (closed) {
      unpin(offset);
      return false;
    }
    return true;
  }

  /** Ends a pin taken by {@link #pin}; the last unpin after {@link #close} closes the engine. */
  public void unpin(long offset) {
    pins.unpin(offset);
    if (closed) {
      releaseEngineIfUnpinned();
    }
  }

  /** A view handed out over a pinned slot, its token the slot's offset, was released for the last time. */
  @Override
  public void viewReleased(long token) {
    unpin(token);
  }

  /** Returns the slot to the allocator now, or when its last pin goes. Once per allocation. */
  public void free(long offset, int length) {
    pins.freeWhenUnpinned(offset, length);
  }

  /** Whether {@link #close} was called: reads miss and writes are dropped from then on. */
  public boolean closed() {
    return closed;
  }

  /** Slots pinned now. */
  public int pinnedSlots() {
    return pins.pinnedSlots();
  }

  /** Refuses new pins; the engine is closed now or by the last unpin. Idempotent. */
  public void close() {
    closed = true;
    releaseEngineIfUnpinned();
  }

  private void releaseEngineIfUnpinned() {
    if (pins.pinnedSlots() == 0 && engineReleased.compareAndSet(false, true)) {
      engine.close();
    }
  }

  /** Whether the engine has been closed (after {@link #close} and the last unpin). */
  public boolean engineReleased() {
    return engineReleased.get();
  }
}
