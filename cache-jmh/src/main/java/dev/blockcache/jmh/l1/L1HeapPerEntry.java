package dev.blockcache.jmh.l1;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import dev.blockcache.jmh.HeapFigure;
import dev.blockcache.jmh.hbase.HBaseBlocks;
import dev.blockcache.l1.lru.LruBlockCache;
import dev.blockcache.l1.tinylfu.TinyLfuBlockCache;
import io.netty.buffer.Unpooled;
import java.lang.ref.Reference;
import java.util.Locale;
import java.util.concurrent.ForkJoinPool;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.FirstLevelBlockCache;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;

/**
 * Heap bytes an L1 cache holds per cached block beyond the block's own bytes, at 1,000,000 blocks, ours against
 * HBase 2.6.4's, measured in the same run by a forced-GC heap delta.
 *
 * <p>Method, per competitor, each in a JVM of its own with the benchmarks' fork flags:
 * <ol>
 *   <li>Full GCs until the used heap settles: the baseline.</li>
 *   <li>Create the cache and insert {@link #ENTRIES} distinct blocks of {@value #BLOCK_BYTES} bytes over the 32 file
 *       names of {@link Keys}, the way each project's reader inserts: ours through {@code handOver} of a buffer
 *       wrapping a fresh array, HBase's {@code cacheBlock} of an on-heap {@link HFileBlock} (its 33-byte header
 *       before the bytes), whose reader reference is then released. Nothing is evicted (capacity 1 KiB per block);
 *       the program keeps no key or block.</li>
 *   <li>Full GCs again; (used − baseline) / blocks − {@value #BLOCK_BYTES} is the figure: key, map node and table,
 *       entry object, buffer objects, array header, file index, and for HBase the block header bytes.</li>
 * </ol>
 * Each cache is presized as its project presizes it for an expected block size of 1 KiB (both map tables end at
 * 2^21 slots).
 *
 * <p>Run: {@code java -cp <cache-jmh classpath> dev.blockcache.jmh.l1.L1HeapPerEntry [entries]} (see
 * docs/benchmarks.md for the classpath); with {@code --child COMPETITOR entries} it measures one competitor in the
 * current JVM.
 *
 * <p>Thread-safety: a main; not for concurrent use.
 */
public final class L1HeapPerEntry {
  /** Blocks cached, as the target states it. */
  static final int ENTRIES = 1_000_000;
  /** Bytes of block content: small, so that a million blocks fit a benchmark fork's heap. */
  static final int BLOCK_BYTES = 256;
  /** Capacity per block and the expected block size each cache is presized for. */
  static final int BYTES_PER_BLOCK = 1024;

  /** The caches measured. */
  enum Competitor {
    OURS_LRU, OURS_TINYLFU, HBASE_LRU, HBASE_TINYLFU
  }

  private L1HeapPerEntry() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("--child")) {
      System.out.println(HeapFigure.childResult(measure(Competitor.valueOf(args[1]), Integer.parseInt(args[2]))));
      return;
    }
    int entries = args.length > 0 ? Integer.parseInt(args[0]) : ENTRIES;
    double[] figures = new double[Competitor.values().length];
    for (Competitor c : Competitor.values()) {
      figures[c.ordinal()] = HeapFigure.inChild(L1HeapPerEntry.class, c.name(), entries);
    }
    System.out.printf(Locale.ROOT, "L1 heap per cached block beyond its %d bytes, at %,d blocks (forced-GC delta):%n",
        BLOCK_BYTES, entries);
    for (Competitor c : Competitor.values()) {
      System.out.printf(Locale.ROOT, "  %-14s %8.1f B/block%n", c, figures[c.ordinal()]);
    }
    System.out.printf(Locale.ROOT, "  ratio OURS_LRU / HBASE_LRU %8.2f x%n",
        figures[Competitor.OURS_LRU.ordinal()] / figures[Competitor.HBASE_LRU.ordinal()]);
    System.out.printf(Locale.ROOT, "  ratio OURS_TINYLFU / HBASE_TINYLFU %8.2f x%n",
        figures[Competitor.OURS_TINYLFU.ordinal()] / figures[Competitor.HBASE_TINYLFU.ordinal()]);
  }

  /** Heap bytes per block beyond its content, of {@code competitor} holding {@code entries} blocks. */
  static double measure(Competitor competitor, int entries) {
    Keys names = new Keys(BLOCK_BYTES);
    long capacity = (long) entries * BYTES_PER_BLOCK;
    long before = HeapFigure.settledHeap();
    Object cache;
    long count;
    switch (competitor) {
      case OURS_LRU, OURS_TINYLFU -> {
        BlockCache ours = competitor == Competitor.OURS_LRU
            ? new LruBlockCache(LruConfig.builder(capacity).minBlockSize(BYTES_PER_BLOCK).build())
            : new TinyLfuBlockCache(TinyLfuConfig.of(capacity, TinyLfuConfig.DEFAULT_MAX_BLOCK_SIZE,
                BYTES_PER_BLOCK));
        CacheOptions options = CacheOptions.of(BlockCategory.DATA);
        for (int i = 0; i < entries; i++) {
          CacheResult result = ours.handOver(BlockKey.of(names.file(i), names.offset(i)),
              Unpooled.wrappedBuffer(names.content(i)), options);
          if (result != CacheResult.CACHED) {
            throw new IllegalStateException(competitor + ": block " + i + " " + result);
          }
        }
        cache = ours;
        count = ours.blockCount();
      }
      default -> {
        FirstLevelBlockCache hbase = competitor == Competitor.HBASE_LRU
            ? new org.apache.hadoop.hbase.io.hfile.LruBlockCache(capacity, BYTES_PER_BLOCK, false)
            : new org.apache.hadoop.hbase.io.hfile.TinyLfuBlockCache(capacity, BYTES_PER_BLOCK,
                TinyLfuConfig.DEFAULT_MAX_BLOCK_SIZE, ForkJoinPool.commonPool());
        HFileContext context = new HFileContextBuilder().withBlockSize(BLOCK_BYTES).build();
        for (int i = 0; i < entries; i++) {
          HFileBlock block = HBaseBlocks.dataBlock(names.content(i), names.offset(i), context);
          hbase.cacheBlock(new BlockCacheKey(names.file(i), names.offset(i), true, BlockType.DATA), block);
          block.release();
        }
        cache = hbase;
        count = hbase.getBlockCount();
      }
    }
    if (count != entries) {
      throw new IllegalStateException(competitor + ": " + count + " of " + entries + " blocks cached");
    }
    long after;
    try {
      after = HeapFigure.settledHeap();
    } finally {
      Reference.reachabilityFence(cache);
      Reference.reachabilityFence(names);
    }
    return (double) (after - before) / entries - BLOCK_BYTES;
  }
}
