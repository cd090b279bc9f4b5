package dev.blockcache.bucket.alloc;

/**
 * Returns an L2 slot to its allocator; {@link SlotPins} calls it once no reader holds the slot. Usually
 * {@code allocator::free}.
 *
 * <p>Thread-safety: called from whichever thread drops the last pin or asks for the free; implementations must be
 * thread-safe.
 */
@FunctionalInterface
public interface SlotFreer {
  /** Frees the item at {@code offset}, allocated for {@code length} bytes. */
  void free(long offset, int length);
}
