package dev.blockcache.bucket.engine;

import java.io.IOException;

/**
 * Makes an engine for one scheme of {@code hbase.bucketcache.ioengine}.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface IoEngineFactory {
  /**
   * An engine for {@code spec} (the whole configured value, e.g. {@code file:/data/cache.bin}) of {@code capacity}
   * bytes addressed in segments of {@code segmentSize}; the caller owns and closes it.
   */
  IoEngine create(String spec, long capacity, int segmentSize) throws IOException;
}
