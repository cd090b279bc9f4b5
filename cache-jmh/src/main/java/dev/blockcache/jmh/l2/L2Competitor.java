package dev.blockcache.jmh.l2;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The L2 competitors, selected by a {@code @Param}. The bucket caches run on the setup's engine ({@code offheap} unless
 * the benchmark says otherwise) with HBase's default bucket sizes, 3 writer threads of 64-entry queues, and their own
 * writer threads started (but OURS_INLINE, which has none).
 *
 * <p>Thread-safety: immutable.
 */
public enum L2Competitor {
  /** blockcache's BucketCache, gets return zero-copy views of the slot (the default read path). */
  OURS_ZERO_COPY {
    @Override
    L2Adapter create(L2Setup setup) throws IOException {
      return OursBucketAdapter.create(name(), setup, b -> b);
    }
  },
  /** blockcache's BucketCache with {@code hbase.bucketcache.read.copy=true}: gets copy the block to the heap. */
  OURS_COPY {
    @Override
    L2Adapter create(L2Setup setup) throws IOException {
      return OursBucketAdapter.create(name(), setup, b -> b.copyOnRead(true));
    }
  },
  /**
   * blockcache's BucketCache, default config, inserting through {@code handOver}: the cache keeps the caller's
   * buffer in its RAM cache until the writer copied it into its slot (no heap copy), as HBase's does.
   */
  OURS_HAND_OVER {
    @Override
    L2Adapter create(L2Setup setup) throws IOException {
      return OursBucketAdapter.create(name(), setup, b -> b, OursBucketAdapter.Insert.HAND_OVER);
    }
  },
  /**
   * blockcache's BucketCache with {@code hbase.bucketcache.writer.inline=true}: {@code cacheBlock} writes the slot on
   * the calling thread (no writer threads); gets are zero-copy views.
   */
  OURS_INLINE {
    @Override
    L2Adapter create(L2Setup setup) throws IOException {
      return OursBucketAdapter.create(name(), setup, b -> b.writerInline(true));
    }
  },
  /**
   * blockcache's BucketCache behind HBase's own {@code BlockCache} interface (cache-hbase's {@code HBaseL2Cache}):
   * HBase's HFileBlocks in and out, as a RegionServer would use it. Not in the default parameter lists; select it
   * with {@code -Dbench.params="competitor=OURS_HBASE_API,HBASE_BUCKET"}.
   */
  OURS_HBASE_API {
    @Override
    L2Adapter create(L2Setup setup) throws IOException {
      return new OursHBaseApiAdapter(name(), setup);
    }
  },
  /** HBase 2.6.4's BucketCache on the setup's engine, as a RegionServer builds it. */
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
  },
  /**
   * Not a cache: each block copied once into its own slot of one direct buffer, nothing else. The floor of an insert
   * (see {@link CopyFloorAdapter}); the insert benchmark's ceiling.
   */
  COPY_FLOOR {
    @Override
    L2Adapter create(L2Setup setup) {
      return CopyFloorAdapter.packed(name(), setup);
    }
  },
  /**
   * Not a cache: {@link #COPY_FLOOR} with slots laid out as a bucket cache with HBase's default sizes lays them out
   * (see {@link CopyFloorAdapter#slotShaped}); the ceiling of any cache that stores blocks in those sizes.
   */
  SLOT_FLOOR {
    @Override
    L2Adapter create(L2Setup setup) {
      return CopyFloorAdapter.slotShaped(name(), setup);
    }
  },
  /**
   * Not a cache: a heap map to slot offsets and one 8-byte read of the slot per get (see
   * {@link SlotReadFloorAdapter}); the floor of a get that looks its slot up and reads it, with none of a cache's
   * own work.
   */
  SLOT_READ_FLOOR {
    @Override
    L2Adapter create(L2Setup setup) {
      return new SlotReadFloorAdapter(name(), setup);
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
