package dev.blockcache.jmh.l1;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.blockcache.api.BlockKey;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.jmh.l1.OursAdapter.Access;
import dev.blockcache.jmh.workload.KeySource;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.l1.tinylfu.TinyLfuBlockCache;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;

/**
 * The L1 competitors, selected by a {@code @Param}. Each builds its cache with the capacity given, the defaults its
 * project ships, and the threads it runs in production.
 *
 * <p>Thread-safety: immutable.
 */
public enum L1Competitor {
  /** blockcache's LruBlockCache, HBase defaults, background evictor started (it idles: nothing is inserted). */
  OURS_LRU {
    @Override
    L1Adapter create(long capacity, Keys names, int keys, KeySource source) {
      LruConfig config = LruConfig.builder(capacity).minBlockSize(names.blockSize()).build();
      return new OursAdapter(name(), new LruBlockCache(config).start(), Access.GET, names, keys, source);
    }
  },
  /** blockcache's TinyLfuBlockCache (Caffeine), maintenance thread started, as in production. */
  OURS_TINYLFU {
    @Override
    L1Adapter create(long capacity, Keys names, int keys, KeySource source) {
      TinyLfuConfig config = TinyLfuConfig.of(capacity, TinyLfuConfig.DEFAULT_MAX_BLOCK_SIZE, names.blockSize());
      return new OursAdapter(name(), new TinyLfuBlockCache(config).start(), Access.GET, names, keys, source);
    }
  },
  /** OURS_LRU read through the scoped {@code read(key, options, reader)}: the block is lent, nothing allocated. */
  OURS_LRU_SCOPED {
    @Override
    L1Adapter create(long capacity, Keys names, int keys, KeySource source) {
      LruConfig config = LruConfig.builder(capacity).minBlockSize(names.blockSize()).build();
      return new OursAdapter(name(), new LruBlockCache(config).start(), Access.SCOPED_READ, names, keys, source);
    }
  },
  /** OURS_TINYLFU read through the scoped {@code read(key, options, reader)}. */
  OURS_TINYLFU_SCOPED {
    @Override
    L1Adapter create(long capacity, Keys names, int keys, KeySource source) {
      TinyLfuConfig config = TinyLfuConfig.of(capacity, TinyLfuConfig.DEFAULT_MAX_BLOCK_SIZE, names.blockSize());
      return new OursAdapter(name(), new TinyLfuBlockCache(config).start(), Access.SCOPED_READ, names, keys, source);
    }
  },
  /** HBase 2.6's LruBlockCache with its eviction thread, as a RegionServer builds it. */
  HBASE_LRU {
    @Override
    L1Adapter create(long capacity, Keys names, int keys, KeySource source) {
      return new HBaseAdapter(name(),
          new org.apache.hadoop.hbase.io.hfile.LruBlockCache(capacity, names.blockSize(), true), names, keys, source);
    }
  },
  /**
   * HBase 2.6's TinyLfuBlockCache with the common fork-join pool as its Caffeine executor, as HBase's
   * BlockCacheFactory builds it. HBase built it against Caffeine 2.8.1; here it runs on our Caffeine 3.x.
   */
  HBASE_TINYLFU {
    @Override
    L1Adapter create(long capacity, Keys names, int keys, KeySource source) {
      return new HBaseAdapter(name(), new org.apache.hadoop.hbase.io.hfile.TinyLfuBlockCache(
          capacity, names.blockSize(), TinyLfuConfig.DEFAULT_MAX_BLOCK_SIZE, ForkJoinPool.commonPool()),
          names, keys, source);
    }
  },
  /**
   * A plain bounded Caffeine cache, key to byte[], weighted as OURS_TINYLFU's cache is, with Caffeine's default
   * executor (the common fork-join pool: maintenance off the reading thread, as OURS_TINYLFU's maintenance thread
   * takes it): the floor that OURS_TINYLFU's get can approach. Gets are {@code Cache.getIfPresent}.
   */
  CAFFEINE {
    @Override
    L1Adapter create(long capacity, Keys names, int keys, KeySource source) {
      Cache<BlockKey, byte[]> cache = Caffeine.newBuilder()
          .maximumWeight(capacity)
          .weigher((BlockKey key, byte[] block) -> block.length + HeapBlock.TINYLFU_ENTRY_OVERHEAD)
          .build();
      return new MapAdapter(name(), cache.asMap(), cache::getIfPresent, cache::cleanUp, names, keys, source);
    }
  },
  /** A bare ConcurrentHashMap, key to byte[]: no policy, no counting, no reference counting. */
  CHM {
    @Override
    L1Adapter create(long capacity, Keys names, int keys, KeySource source) {
      ConcurrentHashMap<BlockKey, byte[]> map = new ConcurrentHashMap<>(keys * 2);
      return new MapAdapter(name(), map, map::get, () -> { }, names, keys, source);
    }
  };

  /**
   * A competitor sized to {@code capacity} bytes, for the first {@code keys} blocks of {@code names}, each get coming
   * by its key as {@code source} says.
   */
  abstract L1Adapter create(long capacity, Keys names, int keys, KeySource source);
}
