package dev.blockcache.jmh.l1;

/**
 * One L1 competitor behind the smallest interface a get benchmark needs: key {@code i} of a fixed key set of
 * {@code keys} blocks, pre-populated by {@link #populate}, each key come by as the adapter's
 * {@link dev.blockcache.jmh.workload.KeySource} says.
 *
 * <p>{@link #get} does what a storage engine's reader does with a hit, by the competitor's own contract: it takes
 * the block, reads its first, middle and last byte ({@link ThreeBytes}, the same consumption for every competitor,
 * so that the figures compare the caches, not the readers) and gives back whatever reference the get handed it. A
 * miss throws: a get benchmark that misses measures something else.
 *
 * <p>Thread-safety: {@link #get} is called by all benchmark threads at once, each with its own {@link ThreeBytes};
 * {@link #populate} and {@link #close} are called by one thread, before and after the measured phase.
 */
interface L1Adapter extends AutoCloseable {

  /** Caches blocks 0 .. keys-1; throws if any block was not cached. */
  void populate();

  /**
   * Looks key {@code i} up, reads three of its bytes and releases the block; returns their sum. {@code reader} is the
   * calling thread's, for competitors that read through a scoped reader.
   */
  int get(int i, ThreeBytes reader);

  /** The number of blocks the competitor holds, as it counts them. */
  long blockCount();

  @Override
  void close();

  /** The {@link IllegalStateException} a miss in a get benchmark throws. */
  static IllegalStateException miss(String competitor, int i) {
    return new IllegalStateException(competitor + ": key " + i + " missed in a pre-populated get benchmark");
  }
}
