package dev.blockcache.hbase.bench;

import java.io.Closeable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;
import org.apache.hadoop.hbase.regionserver.HRegion;

/**
 * What the region benchmarks read through: a {@link RegionDataset}'s region opened over HBase's
 * {@code CombinedBlockCache} of an {@code LruBlockCache} L1 ({@value #L1_MB} MiB; index and bloom blocks) and the L2
 * under test ({@value #L2_MB} MiB), with the L2 filled and its heap measured.
 *
 * <p>Opening, in order: the region opens with an empty L2 slot ({@link DeferredL2}); a get of one row in
 * {@value #INDEX_STRIDE} loads the L1's index and bloom blocks. A throwaway L2 of the same competitor then goes
 * through the same fill and is shut down: what the first L2 of its kind in a JVM creates once (its classes, static
 * tables such as a name-hash memo, a buffer pool's arenas, and HBase's read path for L2 hits) is then on the heap
 * before the measured L2 exists, as it is in a RegionServer that has run for a while; that one-off heap is reported
 * on its own ({@link #oneOffHeapKib}). Used heap after forced GCs is then taken three times: before the measured L2
 * is created, after it is created and attached, and after gets of one row in every half block have filled it
 * (repeated, with the writers drained after each, until its block count stops growing: writer queues drop blocks
 * when full, in both caches; once for a dataset larger than the L2, which one pass fills). The second minus the first
 * is the empty L2's fixed heap (its own structures: index, allocator, queues, counters); the third minus the second,
 * divided by the L2's block count, is its heap per cached block (cache-jmh's {@code L2HeapPerEntry} gives the figure
 * at 1,000,000 blocks). Block bytes are off the heap in every cache competitor.
 *
 * <p>Thread-safety: the region and caches are safe for concurrent reads; opening and closing belong to one thread.
 */
final class RegionStack implements Closeable {
  /** L2 capacity in MiB, the same for every competitor. */
  static final int L2_MB = 32;
  /** L1 capacity in MiB: holds every index and bloom block of the datasets. */
  static final int L1_MB = 32;
  /**
   * Rows between two gets that load the L1's index and bloom blocks before the L2 exists: the ROW bloom's chunks and
   * the leaf index blocks each cover far more rows than this.
   */
  private static final int INDEX_STRIDE = 1000;
  /** Rows between two gets of the L2's fill: under half the rows of a 64 KiB block, so no block is skipped. */
  private static final int FILL_STRIDE = RegionDataset.BLOCK_SIZE / RegionDataset.ROW_BYTES / 2;
  /** Most fill passes while the L2's block count still grows. */
  private static final int MAX_FILL_PASSES = 3;

  private final RegionCompetitor competitor;
  private final RegionDataset data;
  private final Path scratch;
  private final LruBlockCache l1;
  private final RegionDataset.OpenRegion open;
  private BlockCache l2;
  private double heapBytesPerBlock;
  private double fixedHeapKib;
  private double oneOffHeapKib;

  private RegionStack(RegionCompetitor competitor, RegionDataset data) throws IOException {
    this.competitor = competitor;
    this.data = data;
    this.scratch = Files.createTempDirectory("regionbench");
    this.l1 = new LruBlockCache((long) L1_MB << 20, RegionDataset.BLOCK_SIZE);
    DeferredL2 slot = new DeferredL2();
    this.open = data.open(new CombinedBlockCache(l1, slot), scratch);
    touchRows(INDEX_STRIDE);
    long beforeOneOff = settledHeap();
    payOneOffCosts(slot);
    long beforeL2 = settledHeap();
    l2 = competitor.create(L2_MB, scratch);
    slot.attach(l2);
    long emptyL2 = settledHeap();
    fill(l2);
    heapBytesPerBlock = (double) (settledHeap() - emptyL2) / l2.getBlockCount();
    fixedHeapKib = (emptyL2 - beforeL2) / 1024.0;
    oneOffHeapKib = (beforeL2 - beforeOneOff) / 1024.0;
  }

  /** Fills a throwaway L2 of the competitor through the region and shuts it down (see the class notes). */
  private void payOneOffCosts(DeferredL2 slot) throws IOException {
    BlockCache throwaway = competitor.create(L2_MB, Files.createDirectories(scratch.resolve("one-off")));
    slot.attach(throwaway);
    try {
      fill(throwaway);
    } finally {
      slot.detach();
      evictAll(throwaway);
      throwaway.shutdown();
    }
  }

  /**
   * Evicts every block of {@code cache} by file before it is shut down: HBase's BucketCache drops its entries on
   * shutdown without releasing them, and their collection would then be reported by HBase's leak detector.
   */
  private static void evictAll(BlockCache cache) {
    Set<String> files = new HashSet<>();
    cache.iterator().forEachRemaining(block -> files.add(block.getFilename()));
    files.forEach(cache::evictBlocksByHfileName);
  }

  /** The region over {@code megabytes} of rows, reading through {@code competitor}'s L2, filled and measured. */
  static RegionStack open(RegionCompetitor competitor, int megabytes) throws IOException {
    return new RegionStack(competitor, RegionDataset.prepare(megabytes));
  }

  private static long datasetMegabytes(RegionDataset data) {
    return (data.rows() * RegionDataset.ROW_BYTES) >> 20;
  }

  /** Gets rows until {@code cache}, the attached L2, is full or holds the whole dataset (see the class notes). */
  private void fill(BlockCache cache) throws IOException {
    boolean largerThanL2 = datasetMegabytes(data) > L2_MB;
    long blocks = 0;
    for (int pass = 0; pass < MAX_FILL_PASSES; pass++) {
      touchRows(FILL_STRIDE);
      competitor.drain(cache);
      long now = cache.getBlockCount();
      if (largerThanL2 || now <= blocks + blocks / 100) {
        return;
      }
      blocks = now;
    }
  }

  HRegion region() {
    return open.region();
  }

  long rows() {
    return data.rows();
  }

  /** Returns once the L2's writers have stored every block offered so far. */
  void drain() {
    competitor.drain(l2);
  }

  /** Heap bytes per cached L2 block (see the class notes). */
  double heapBytesPerBlock() {
    return heapBytesPerBlock;
  }

  /** Heap of the empty L2 in KiB (see the class notes). */
  double fixedHeapKib() {
    return fixedHeapKib;
  }

  /** Heap in KiB that the throwaway L2 left behind: what the first L2 of its kind costs a JVM once. */
  double oneOffHeapKib() {
    return oneOffHeapKib;
  }

  long l2Hits() {
    return l2.getStats().getHitCount();
  }

  long l2Requests() {
    return l2.getStats().getRequestCount();
  }

  /** Gets row {@code id}; returns its value's length. */
  int get(long id) throws IOException {
    Result r = region().get(new Get(RegionDataset.rowKey(id)));
    if (r.isEmpty()) {
      throw new IllegalStateException("row " + id + " missing");
    }
    return r.rawCells()[0].getValueLength();
  }

  /** Gets one row in every {@code stride}. */
  private void touchRows(int stride) throws IOException {
    for (long id = 0; id < data.rows(); id += stride) {
      get(id);
    }
  }

  /** Used heap after full GCs, once two in a row agree within 16 KiB (at most 10). */
  private static long settledHeap() {
    long previous = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (Math.abs(previous - used) < 16 * 1024) {
        return used;
      }
      previous = used;
    }
    return previous;
  }

  /** Closes the region and its WAL, shuts both caches down and deletes the scratch directory. */
  @Override
  public void close() throws IOException {
    try {
      open.close();
    } finally {
      l2.shutdown();
      l1.shutdown();
      RegionDataset.deleteTree(scratch);
    }
  }
}
