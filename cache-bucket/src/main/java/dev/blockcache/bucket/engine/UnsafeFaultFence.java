package dev.blockcache.bucket.engine;

/**
 * Makes the JVM deliver a pending memory-access fault now, inside the caller's {@code try}, instead of at some later
 * point of the thread.
 *
 * <h2>Why</h2>
 * A SIGBUS in a memory copy that compiled code made through {@code Unsafe} (a page of a memory-mapped file that the
 * file system cannot back) does not throw at the copy: HotSpot skips the faulting copy, marks an asynchronous
 * {@link InternalError} pending on the thread, and throws it the next time the thread returns to Java from a runtime
 * call — which can be far from the copy, in a caller's code. A multi-dimensional array allocation whose outer length
 * the compiler cannot see is always such a runtime call (in the interpreter and both compilers), so calling
 * {@link #deliverPendingFault()} right after a copy makes the fault surface there, where the engine turns it into an
 * {@link java.io.IOException}.
 *
 * <p>Thread-safety: stateless.
 */
final class UnsafeFaultFence {
  /**
   * Always 1; volatile so that no compiler treats the outer length as a constant (a constant length would let the
   * compiler allocate inline, without the runtime call).
   */
  private static volatile int outerLength = 1;

  private UnsafeFaultFence() {}

  /** Throws the {@link InternalError} of a memory-access fault pending on this thread, if there is one. */
  static void deliverPendingFault() {
    byte[][] fence = new byte[outerLength][0];
    if (fence.length != 1) {
      throw new AssertionError("the fence's outer length changed");
    }
  }
}
