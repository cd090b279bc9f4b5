package dev.blockcache.buffer;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.util.IllegalReferenceCountException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A {@link ByteBuf} with a reference count of its own, counted as netty's {@code AbstractReferenceCountedByteBuf}
 * counts (created with one reference; {@link #deallocate} once when the count reaches 0; every access after that
 * throws {@link IllegalReferenceCountException}), except that releasing the only reference can be done without an
 * atomic instruction.
 *
 * <h2>Design notes</h2>
 * <ul>
 *   <li><b>Why.</b> A cache hands out one view per hit and the reader releases it, almost always as its only
 *       reference. netty's release compare-and-sets the count even then; an atomic instruction makes the processor
 *       finish every earlier load before any later one, so a hit's cache misses could not overlap with the next
 *       hit's. A hit that released with one was measurably slower than one without.</li>
 *   <li><b>Why a plain final release is safe.</b> When the count is 1, the releasing caller holds the only reference,
 *       so no other thread may legitimately retain or release the buffer concurrently: a reference is shared only by
 *       a {@link #retain} its holder makes before handing it over. The count is read with acquire semantics and set
 *       to 0 with release semantics, so a holder that released concurrently (bringing the count to 1 by a
 *       compare-and-set) finished its reads before {@link #deallocate} runs. A count above 1 takes the
 *       compare-and-set path, as in netty.</li>
 *   <li><b>What it gives up.</b> Two threads releasing one reference at the same time (a caller bug) may both see
 *       1 and both deallocate, where netty's compare-and-set lets one of them fail. So the plain final release is
 *       only taken where {@link #releasesPlainly} says deallocating twice does no harm (a heap view: its memory is
 *       the garbage collector's); a view whose release frees a cache slot keeps the compare-and-set. A release of a
 *       buffer already released is detected either way.</li>
 * </ul>
 *
 * <p>Thread-safety: reference counting is thread-safe under netty's rules (retain before sharing); reading indexes
 * are not (as for every {@link ByteBuf}).
 */
abstract class RefCountedBuf extends AbstractByteBuf {
  private static final VarHandle REFS;

  static {
    try {
      REFS = MethodHandles.lookup().findVarHandle(RefCountedBuf.class, "refs", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** References held; accessed through {@link #REFS} except in the constructor. */
  @SuppressWarnings("unused") // accessed through REFS
  private int refs = 1;

  RefCountedBuf(int maxCapacity) {
    super(maxCapacity);
  }

  /** Called once, by the release that brings the count to 0. */
  protected abstract void deallocate();

  /**
   * Whether a release of the only reference may set the count to 0 without an atomic instruction: true only where
   * two concurrent releases of one reference (a caller bug) deallocating twice would do no harm.
   */
  protected abstract boolean releasesPlainly();

  /**
   * {@inheritDoc} A plain read: netty checks it before every access ({@code ensureAccessible}), as its own buffers
   * check theirs with a non-volatile read, so that the JIT can fold the checks of a reader's consecutive accesses.
   * The holder sees its own retains and releases; another thread may see a count a moment old.
   */
  @Override
  public int refCnt() {
    return (int) REFS.get(this);
  }

  /** Gives a released buffer its one reference back; only for a view its thread reuses (see ScopedBlockView). */
  final void resetRefCnt() {
    REFS.setRelease(this, 1);
  }

  @Override
  public ByteBuf retain() {
    return retainBy(1);
  }

  @Override
  public ByteBuf retain(int increment) {
    return retainBy(increment);
  }

  /** The count of {@link #retain()} and {@link #retain(int)}, which a subclass may refuse while it uses this. */
  private ByteBuf retainBy(int increment) {
    if (increment <= 0) {
      throw new IllegalArgumentException("increment " + increment + " is not positive");
    }
    int refs = (int) REFS.getVolatile(this);
    while (true) {
      if (refs == 0 || refs + increment < refs) {
        throw new IllegalReferenceCountException(refs, increment);
      }
      int seen = (int) REFS.compareAndExchange(this, refs, refs + increment);
      if (seen == refs) {
        return this;
      }
      refs = seen;
    }
  }

  @Override
  public boolean release() {
    return releaseBy(1);
  }

  @Override
  public boolean release(int decrement) {
    return releaseBy(decrement);
  }

  /** The count of {@link #release()} and {@link #release(int)}, which a subclass may refuse while it uses this. */
  private boolean releaseBy(int decrement) {
    if (decrement <= 0) {
      throw new IllegalArgumentException("decrement " + decrement + " is not positive");
    }
    int refs = (int) REFS.getAcquire(this);
    if (refs == decrement && releasesPlainly()) {
      REFS.setRelease(this, 0);
      deallocate();
      return true;
    }
    while (true) {
      if (refs < decrement) {
        throw new IllegalReferenceCountException(refs, -decrement);
      }
      int seen = (int) REFS.compareAndExchange(this, refs, refs - decrement);
      if (seen == refs) {
        if (refs == decrement) {
          deallocate();
          return true;
        }
        return false;
      }
      refs = seen;
    }
  }
}
