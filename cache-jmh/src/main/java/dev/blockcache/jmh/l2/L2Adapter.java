package dev.blockcache.jmh.l2;

/**
 * One L2 competitor behind the smallest interface the L2 benchmarks need, over a fixed key set of {@code keys} blocks
 * (key {@code i} as {@link dev.blockcache.jmh.l1.Keys} maps it, the same for every competitor).
 *
 * <p>{@link #get} does what a reader does with a hit, by the competitor's own contract: it takes the block, reads three
 * of its bytes and gives back whatever reference the get handed it. A miss throws: a get benchmark that misses measures
 * something else. {@link #insert} offers one block the way a storage engine's reader does after reading it from disk,
 * and keeps no reference the cache did not ask for.
 *
 * <p>Thread-safety: {@link #get} is called by all benchmark threads at once; the other methods by one thread, outside
 * or around the measured operations.
 */
interface L2Adapter extends AutoCloseable {

  /**
   * Builds the source block of every key now, so that {@link #insert} only hands a ready block to the cache (as a
   * reader does once its read completed). Without it, {@link #insert} builds the block itself.
   */
  void prepareSources();

  /** Offers block {@code i} to the cache; returns whether the cache accepted it (a refused block is dropped). */
  boolean insert(int i);

  /** Blocks until every accepted block has been written to a slot or dropped, and none waits in RAM. */
  void drain();

  /**
   * Looks key {@code i} up (its key come by as the setup's {@link L2Setup#keySource} says), reads the block's first,
   * middle and last byte ({@link dev.blockcache.jmh.l1.ThreeBytes}) and gives back the reference the get handed out.
   *
   * @return the three bytes' sum
   */
  int get(int i);

  /** Blocks the cache holds, as it counts them; after {@link #drain()}, the blocks in slots. */
  long blockCount();

  /**
   * Blocks that have reached a slot since the cache was built: those it holds plus those its eviction removed (not
   * those {@link #clear} removed). After {@link #drain()}, the difference across a burst counts the burst's blocks
   * that the cache took, whether or not later ones of the burst evicted them again. Only caches that evict count it.
   *
   * @throws UnsupportedOperationException for a competitor that never evicts (the floors, the map)
   */
  default long slotted() {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not evict");
  }

  /** Removes every block; slots return to the allocator (no reader holds one). */
  void clear();

  @Override
  void close();

  /** The {@link IllegalStateException} a miss in a get benchmark throws. */
  static IllegalStateException miss(String competitor, int i) {
    return new IllegalStateException(competitor + ": key " + i + " missed in a pre-populated get benchmark");
  }
}
