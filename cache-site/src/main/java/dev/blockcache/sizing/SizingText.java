package dev.blockcache.sizing;

import java.util.Locale;

/**
 * Prints a {@link SizingReport} as plain text for a person: the machine, each tier's capacity and fit, the heap, the
 * page cache, the dataset sizes of the YCSB sizing method, then problems, notes and reported keys.
 *
 * <p>Thread-safety: stateless.
 */
public final class SizingText {
  /** Bytes of a YCSB row at its defaults (10 fields of 100 bytes): the sizing method counts ~1 KB per row. */
  public static final long YCSB_ROW_BYTES = 1000;

  private SizingText() {}

  /** The report as text, lines ending in {@code \n}. */
  public static String render(String site, SizingReport r) {
    StringBuilder out = new StringBuilder();
    Machine m = r.machine();
    line(out, "blockcache sizing report for %s", site);
    line(out, "machine: heap %s, direct memory %s, RAM %s, block size %s, file names of %d bytes",
        b(m.heapBytes()), b(m.directMemoryBytes()), b(m.ramBytes()), b(m.blockSize()), m.fileNameBytes());
    out.append('\n');
    r.l1().ifPresentOrElse(l1 -> {
      line(out, "L1 (%s, on heap): capacity %s, eviction starts at %s", l1.policy(), b(l1.capacityBytes()),
          b(l1.evictionStartBytes()));
      line(out, "  %,d blocks of %s (each accounted as %,d bytes: block + entry overhead)", l1.blocks(),
          b(m.blockSize()), l1.bytesPerBlock());
    }, () -> line(out, "L1: none (block cache disabled)"));
    r.l2().ifPresentOrElse(l2 -> {
      line(out, "L2 (%s): %s configured, %s usable in %,d buckets of %s", l2.ioEngine(), b(l2.configuredBytes()),
          b(l2.usableBytes()), l2.buckets(), b(l2.bucketBytes()));
      line(out, "  a block is stored as %,d bytes (header + block) in an item of %,d bytes, %d per bucket",
          l2.storedBytes(), l2.itemBytes(), l2.itemsPerBucket());
      line(out, "  %,d blocks = %s of data, %s of the L2", l2.blocks(), b(l2.blocks() * m.blockSize()),
          percent(l2.usableBytes() == 0 ? 0 : (double) l2.blocks() * m.blockSize() / l2.usableBytes()));
      line(out, "  index heap %s (%.1f bytes per block); writer queues up to %s of heap",
          b(l2.indexHeapBytes()), l2.indexHeapBytesPerBlock(), b(l2.writerQueueHeapBytes()));
      if (!l2.files().isEmpty()) {
        line(out, "  files: %s, %s each", String.join(", ", l2.files()), b(l2.fileBytes()));
      }
    }, () -> line(out, "L2: none (hbase.bucketcache.ioengine is not set)"));
    out.append('\n');
    line(out, "heap taken by the cache: %s = %s of the heap; HBase allows %s (%s minus memstores %s)",
        b(r.cacheHeapBytes()), percent((double) r.cacheHeapBytes() / m.heapBytes()), b(r.heapLimitBytes()),
        percent(CacheSizer.MAX_CACHE_AND_MEMSTORE_SHARE), percent(r.memstoreShare()));
    line(out, "page cache: %s = %s of RAM (RAM - heap - L2 memory outside the heap - reserved %s)",
        b(r.pageCacheBytes()), percent(r.pageCacheShareOfRam()), b(m.reservedRamBytes()));
    out.append('\n');
    line(out, "datasets (YCSB sizing method, %d-byte rows):", YCSB_ROW_BYTES);
    line(out, "  fits in the block cache:               up to %s (%,d rows)", b(r.largestCachedDatasetBytes()),
        r.largestCachedDatasetBytes() / YCSB_ROW_BYTES);
    line(out, "  exceeds block cache + page cache: more than %s (%,d rows)", b(r.smallestUncachedDatasetBytes()),
        r.smallestUncachedDatasetBytes() / YCSB_ROW_BYTES + 1);
    out.append('\n');
    if (r.problems().isEmpty()) {
      line(out, "checks: OK");
    } else {
      line(out, "problems:");
      r.problems().forEach(p -> line(out, "  - %s", p));
    }
    if (!r.notes().isEmpty()) {
      line(out, "notes:");
      r.notes().forEach(n -> line(out, "  - %s", n));
    }
    if (!r.reportedKeys().isEmpty()) {
      line(out, "keys not applied:");
      r.reportedKeys().forEach(k -> line(out, "  - %s", k));
    }
    return out.toString();
  }

  private static String b(long bytes) {
    return ByteSizes.format(bytes);
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }

  private static void line(StringBuilder out, String format, Object... args) {
    out.append(String.format(Locale.ROOT, format, args)).append('\n');
  }
}
