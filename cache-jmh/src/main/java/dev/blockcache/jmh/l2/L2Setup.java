package dev.blockcache.jmh.l2;

import dev.blockcache.jmh.workload.KeySource;

/**
 * What every L2 competitor is built for: a key set, a block size, a capacity and how long {@code cacheBlock} may wait
 * for room in a full writer queue ({@code hbase.bucketcache.queue.addition.waittime}; 0 = refuse at once, HBase's
 * default), how a get comes by its key, and the IO engine of the bucket caches. Writer threads and queue length are
 * HBase's defaults (3 × 64) for both caches.
 *
 * <p>Thread-safety: immutable.
 *
 * @param keys number of distinct blocks
 * @param blockSize bytes of block content (HBase's blocks carry its 33-byte header on top, ours a key header)
 * @param capacity cache capacity in bytes
 * @param queueWaitMs the queue-addition wait in milliseconds
 * @param keySource how {@link L2Adapter#get} comes by its key (inserts use keys made once, whatever it says)
 * @param ioEngine the bucket caches' {@code hbase.bucketcache.ioengine} value, which ours and HBase's parse alike:
 *     {@code offheap}, or {@code file:} and a path (competitors that are not bucket caches ignore it)
 */
record L2Setup(int keys, int blockSize, long capacity, long queueWaitMs, KeySource keySource, String ioEngine) {
  /** The engine of the L2 benchmarks unless one says otherwise. */
  static final String OFFHEAP = "offheap";

  /** Writer threads of both caches: HBase's default. */
  static final int WRITER_THREADS = 3;
  /** Length of each writer queue of both caches: HBase's default. */
  static final int WRITER_QUEUE_LENGTH = 64;

  /** A setup whose gets build their keys per lookup, as a storage engine's reader does. */
  L2Setup(int keys, int blockSize, long capacity, long queueWaitMs) {
    this(keys, blockSize, capacity, queueWaitMs, KeySource.PER_LOOKUP);
  }

  /** A setup on the {@value #OFFHEAP} engine. */
  L2Setup(int keys, int blockSize, long capacity, long queueWaitMs, KeySource keySource) {
    this(keys, blockSize, capacity, queueWaitMs, keySource, OFFHEAP);
  }
}
