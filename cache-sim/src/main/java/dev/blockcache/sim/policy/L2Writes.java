package dev.blockcache.sim.policy;

/**
 * How the simulated L2 writes a missed block, so that each miss is cached before the next access, as it would be
 * in a server whose writers keep up.
 *
 * <p>Thread-safety: immutable.
 */
public enum L2Writes {
  /** {@code hbase.bucketcache.writer.inline=true}: {@code cacheBlock} writes the slot on the caller's thread. */
  INLINE,
  /** The writer queue (HBase's path), drained on the caller's thread after every insert. */
  DRAINED
}
