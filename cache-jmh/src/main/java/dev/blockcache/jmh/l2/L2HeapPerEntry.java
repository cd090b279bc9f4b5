package dev.blockcache.jmh.l2;

import dev.blockcache.jmh.HeapFigure;
import java.lang.ref.Reference;
import java.util.Locale;

/**
 * Heap bytes per cached block of a whole L2 bucket cache at 1,000,000 blocks, ours against HBase 2.6.4's, measured
 * in the same run by a forced-GC heap delta.
 *
 * <p>Method, per competitor, each in a JVM of its own (so that neither sees the other's garbage or class metadata):
 * <ol>
 *   <li>Full GCs until the used heap stops falling; that is the baseline (the JVM, the loaded classes, the 32 file
 *       names the key set shares).</li>
 *   <li>Create the cache ({@code offheap}), offer {@link #ENTRIES} distinct blocks of {@value #BLOCK_BYTES} bytes
 *       (waiting for queue room, so none is refused), wait until the writers have drained (the RAM cache is empty),
 *       and check that every block is in a slot. The benchmark keeps no key or block: whatever is left on the heap
 *       is the cache's.</li>
 *   <li>Full GCs again; (used − baseline) / blocks is the figure: index, keys as the cache keeps them, allocator,
 *       engine bookkeeping, everything the cache holds on the heap. Block bytes are off the heap and not counted.</li>
 * </ol>
 * Both caches get item sizes {512, 8192}: the blocks fit the 512-byte class (HBase: its 33-byte header, the block
 * and a few bytes of metadata; ours: 24 bytes + the file name, then the block), and the largest size (8 KiB) keeps
 * buckets at 32 KiB so that per-bucket bookkeeping stays
 * what it is on a production-size cache (~1 B per block) instead of dominating. HBase gets the RegionServer's default
 * block size (64 KiB) as its {@code blockSize} argument, which sizes its backing map's initial table.
 *
 * <p>Run: {@code java -cp <cache-jmh classpath> dev.blockcache.jmh.l2.L2HeapPerEntry [entries]} (see
 * docs/benchmarks.md for the classpath); prints one line per competitor and the ratio. With arguments
 * {@code --child COMPETITOR entries} it measures one competitor in the current JVM.
 *
 * <p>Thread-safety: a main; not for concurrent use.
 */
public final class L2HeapPerEntry {
  /** Blocks cached, as the target states it. */
  static final int ENTRIES = 1_000_000;
  /** Bytes of block content: small, so that a million blocks take 640 MB of direct memory, not gigabytes. */
  static final int BLOCK_BYTES = 256;
  /** Item sizes of both caches (see the class comment). */
  static final int[] BUCKET_SIZES = {512, 8192};

  private L2HeapPerEntry() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("--child")) {
      double perEntry = measure(L2Competitor.valueOf(args[1]), Integer.parseInt(args[2]));
      System.out.println(HeapFigure.childResult(perEntry));
      return;
    }
    int entries = args.length > 0 ? Integer.parseInt(args[0]) : ENTRIES;
    double ours = HeapFigure.inChild(L2HeapPerEntry.class, L2Competitor.OURS_ZERO_COPY.name(), entries);
    double hbase = HeapFigure.inChild(L2HeapPerEntry.class, L2Competitor.HBASE_BUCKET.name(), entries);
    System.out.printf(Locale.ROOT, "L2 heap per cached block at %,d blocks of %d B (forced-GC heap delta):%n",
        entries, BLOCK_BYTES);
    System.out.printf(Locale.ROOT, "  OURS (BucketCache, offheap)         %8.1f B/block%n", ours);
    System.out.printf(Locale.ROOT, "  HBASE_BUCKET (2.6.4, offheap)       %8.1f B/block%n", hbase);
    System.out.printf(Locale.ROOT, "  ratio HBASE_BUCKET / OURS           %8.2f x%n", hbase / ours);
  }

  /** Heap bytes per block of {@code competitor} holding {@code entries} blocks, measured in this JVM. */
  static double measure(L2Competitor competitor, int entries) {
    long capacity = (long) entries * BUCKET_SIZES[0] * 5 / 4;
    L2Setup setup = new L2Setup(entries, BLOCK_BYTES, capacity, L2GetBenchmark.POPULATE_QUEUE_WAIT_MS);
    long before = HeapFigure.settledHeap();
    L2Adapter cache = competitor == L2Competitor.HBASE_BUCKET
        ? HBaseBucketAdapter.forFootprint(competitor.name(), setup, BUCKET_SIZES)
        : OursBucketAdapter.forFootprint(competitor.name(), setup, BUCKET_SIZES);
    try {
      for (int i = 0; i < entries; i++) {
        if (!cache.insert(i)) {
          throw new IllegalStateException(competitor + ": block " + i + " refused");
        }
      }
      cache.drain();
      if (cache.blockCount() != entries) {
        throw new IllegalStateException(competitor + ": " + cache.blockCount() + " of " + entries + " in slots");
      }
      long after = HeapFigure.settledHeap();
      return (double) (after - before) / entries;
    } finally {
      Reference.reachabilityFence(cache);
      cache.close();
    }
  }
}
