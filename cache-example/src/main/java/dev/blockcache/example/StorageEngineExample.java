package dev.blockcache.example;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CacheStats;
import dev.blockcache.combined.CombinedBlockCache;
import dev.blockcache.minidb.BlockFileLayout;
import dev.blockcache.minidb.BlockFileWriter;
import dev.blockcache.stack.BlockCacheFactory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Runs a storage engine ({@link CachedRowReader}) over a mini block file through the block cache an hbase-site.xml
 * describes, and prints what each tier served: every row is read twice, in order, so each bloom, index and data block
 * misses once (on its first read) and hits afterwards.
 *
 * <pre>
 * StorageEngineExample [hbase-site.xml]
 * </pre>
 * Without an argument it writes a site of its own (L1 20% of the heap, a 64 MB offheap L2) to a temporary directory.
 *
 * <p>Thread-safety: stateless; each run uses its own cache and files.
 */
public final class StorageEngineExample {
  /** Rows in the example file: 32 data blocks of 64 rows, so that every data block fits one L2 writer queue. */
  public static final int ROWS = 2048;
  /** Data block payload: 64 KiB, HBase's default. */
  public static final int BLOCK_SIZE = 64 * 1024;

  /** What one run served, per tier, after both passes. */
  public record Result(long rowsFound, long l1Hits, long l1Misses, long l2Hits, long l2Misses) {}

  private StorageEngineExample() {}

  public static void main(String[] args) throws IOException {
    Path dir = Files.createTempDirectory("blockcache-example");
    Path site = args.length > 0 ? Path.of(args[0]) : writeSite(dir);
    run(site, dir, System.out);
  }

  /** Writes the example file into {@code dir}, reads it twice through the cache {@code site} describes. */
  public static Result run(Path site, Path dir, PrintStream out) throws IOException {
    Path file = dir.resolve("hfile-0001");
    BlockFileWriter.write(file, ROWS, BLOCK_SIZE, 1);
    byte[] row = new byte[BlockFileLayout.ROW_SIZE];
    long found = 0;
    try (BlockCache cache = BlockCacheFactory.fromSiteRequired(site);
        CachedRowReader reader = CachedRowReader.open(file, cache)) {
      out.printf(Locale.ROOT, "%s: %,d rows in %d data blocks of %,d bytes; index block %,d bytes, bloom block %,d"
          + " bytes%n", file.getFileName(), reader.trailer().rowCount(), reader.trailer().blockCount(), BLOCK_SIZE,
          reader.trailer().indexLength(), reader.trailer().bloomLength());
      out.printf(Locale.ROOT, "cache: %s, %,d bytes%n", describe(cache), cache.capacity());
      for (int pass = 1; pass <= 2; pass++) {
        for (long id = 0; id < ROWS; id++) {
          if (reader.readRow(id, row)) {
            found++;
          }
        }
        print(out, "pass " + pass, cache);
      }
      return result(found, cache);
    }
  }

  private static String describe(BlockCache cache) {
    if (cache instanceof CombinedBlockCache combined) {
      return "L1 " + combined.l1().getClass().getSimpleName() + " (index, bloom) + L2 "
          + combined.l2().getClass().getSimpleName() + " (data)";
    }
    return cache.getClass().getSimpleName() + " (every block)";
  }

  private static void print(PrintStream out, String label, BlockCache cache) {
    CacheStats all = cache.stats();
    out.printf(Locale.ROOT, "%s: index %,d hits / %,d misses, bloom %,d / %,d, data %,d / %,d", label,
        all.hitCount(BlockCategory.INDEX), all.missCount(BlockCategory.INDEX), all.hitCount(BlockCategory.BLOOM),
        all.missCount(BlockCategory.BLOOM), all.hitCount(BlockCategory.DATA), all.missCount(BlockCategory.DATA));
    if (cache instanceof CombinedBlockCache combined) {
      out.printf(Locale.ROOT, "; L1 %,d / %,d, L2 %,d / %,d", combined.l1Stats().hitCount(),
          combined.l1Stats().missCount(), combined.l2Stats().hitCount(), combined.l2Stats().missCount());
    }
    out.println();
  }

  private static Result result(long found, BlockCache cache) {
    if (cache instanceof CombinedBlockCache combined) {
      return new Result(found, combined.l1Stats().hitCount(), combined.l1Stats().missCount(),
          combined.l2Stats().hitCount(), combined.l2Stats().missCount());
    }
    return new Result(found, cache.stats().hitCount(), cache.stats().missCount(), 0, 0);
  }

  /** The example's own site: L1 20% of the heap, a 64 MB offheap L2. */
  static Path writeSite(Path dir) throws IOException {
    Path site = dir.resolve("hbase-site.xml");
    Files.writeString(site, """
        <?xml version="1.0"?>
        <configuration>
          <property><name>hfile.block.cache.size</name><value>0.2</value></property>
          <property><name>hbase.bucketcache.ioengine</name><value>offheap</value></property>
          <property><name>hbase.bucketcache.size</name><value>64</value></property>
        </configuration>
        """);
    return site;
  }
}
