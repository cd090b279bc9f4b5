package dev.blockcache.jmh.l2;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The L2 competitors, selected by a {@code @Param}. Both bucket caches run on the {@code offheap} engine with HBase's
 * default bucket sizes, 3 writer threads of 64-entry queues, and their own writer threads started.
 *
 * <p>Thread-safety: immutable.
 */
public enum L2Competitor {
  /** blockcache's BucketCache, gets return zero-copy views of the slot (the default read path). */
  OURS_ZERO_COPY {
    @Override
    L2Adapter create(L2Setup setup) throws IOException {
      return OursBucketAdapter.create(name(), setup, false);
    }
  },
  /** blockcache's BucketCache with {@code hbase.bucketcache.read.copy=true}: gets copy the block to the heap. */
  OURS_COPY {
    @Override
    L2Adapter create(L2Setup setup) throws IOException {
      return OursBucketAdapter.create(name(), setup, true);
    }
  },
  /** HBase 2.6.4's BucketCache on its {@code offheap} engine, as a RegionServer builds it. */
  HBASE_BUCKET {
    @Override
    L2Adapter create(L2Setup setup) throws IOException {
      return new HBaseBucketAdapter(name(), setup);
    }
  },
  /** A bare ConcurrentHashMap, key to byte[] on the heap: the floor of a lookup, no slot, no reference count. */
  CHM {
    @Override
    L2Adapter create(L2Setup setup) {
      return new MapAdapter(name(), setup);
    }
  };

  /** A competitor built for {@code setup}, its writer threads started. */
  abstract L2Adapter create(L2Setup setup) throws IOException;

  /** {@link #create} with an IO failure (the engine could not be created) as an unchecked exception. */
  L2Adapter build(L2Setup setup) {
    try {
      return create(setup);
    } catch (IOException e) {
      throw new UncheckedIOException(name() + ": cannot create the cache", e);
    }
  }
}
