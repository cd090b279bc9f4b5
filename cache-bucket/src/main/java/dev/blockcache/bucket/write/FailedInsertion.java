package dev.blockcache.bucket.write;

import dev.blockcache.api.CacheResult;

/**
 * Counts an insert that did not cache its block, by reason: in the L2's own counters and in the cache's stats.
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
public interface FailedInsertion {
  void count(CacheResult reason);
}
