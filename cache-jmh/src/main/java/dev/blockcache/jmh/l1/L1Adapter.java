package dev.blockcache.jmh.l1;

/**
 * One L1 competitor behind the smallest interface a get benchmark needs: key {@code i} of a fixed key set of
 * {@code keys} blocks, pre-populated by {@link #populate}.
 *
 * <p>{@link #get} does what a reader does with a hit, by the competitor's own contract: it takes the block, reads
 * its length (the same cheap consumption for every competitor, so that the figures compare the caches, not the
 * readers) and gives back whatever reference the get handed it. A miss throws: a get benchmark that misses measures
 * something else.
 *
 * <p>Thread-safety: {@link #get} is called by all benchmark threads at once; {@link #populate} and {@link #close}
 * are called by one thread, before and after the measured phase.
 */
interface L1Adapter extends AutoCloseable {

  /** Caches blocks 0 .. keys-1 of {@code blockSize} bytes; throws if any block was not cached. */
  void populate(int blockSize);

  /** Looks key {@code i} up, consumes and releases the block; returns a value derived from it (its length). */
  int get(int i);

  /** The number of blocks the competitor holds, as it counts them. */
  long blockCount();

  @Override
  void close();

  /** The {@link IllegalStateException} a miss in a get benchmark throws. */
  static IllegalStateException miss(String competitor, int i) {
    return new IllegalStateException(competitor + ": key " + i + " missed in a pre-populated get benchmark");
  }
}
