package dev.blockcache.bucket.write;

/**
 * Whether one submission to a full writer queue may wait for room: HBase's {@code waitWhenCache} argument, which its
 * readers set to false (a read must not stall on the cache's writers) and its cache-on-write paths may set to true.
 *
 * <p>Thread-safety: immutable.
 */
public enum QueueWait {
  /** Wait up to {@code hbase.bucketcache.queue.addition.waittime} for room (no wait when it is 0). */
  CONFIGURED,
  /** Never wait: a full queue fails the submission at once. */
  NONE
}
