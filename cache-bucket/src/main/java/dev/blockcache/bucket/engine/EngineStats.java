package dev.blockcache.bucket.engine;

/**
 * Counters of one {@link IoEngine}: operations, bytes, time spent and errors since it was made.
 *
 * <p>Thread-safety: immutable.
 */
public record EngineStats(long reads, long writes, long bytesRead, long bytesWritten, long readNanos,
    long writeNanos, long errors) {}
