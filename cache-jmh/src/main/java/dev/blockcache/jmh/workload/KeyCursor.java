package dev.blockcache.jmh.workload;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One benchmark thread's position in a precomputed key sequence: threads start about half a sequence apart, so two
 * threads do not read the same keys in lock step. The hot loop is an increment and a mask.
 *
 * <p>Thread-safety: a JMH {@link Scope#Thread} state, used by its own thread only.
 */
@State(Scope.Thread)
public class KeyCursor {
  private static final AtomicInteger THREADS = new AtomicInteger();
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    next = THREADS.getAndIncrement() * (KeyIndexes.LENGTH / 2 + 7919);
  }

  /** The next position, wrapped by {@code mask} (a power of two minus one, the sequence length minus one). */
  public int next(int mask) {
    return next++ & mask;
  }
}
