package dev.blockcache.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.testing.SiteXml;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the example engine through real hbase-site.xml stacks. 2,048 rows in 32 data blocks of 64 rows, read twice in
 * order: per pass 2,048 bloom reads and 2,048 index reads (L1) and 2,048 data reads (L2). Over both passes the bloom
 * and the index block each miss once, each of the 32 data blocks misses once: L1 8,192 reads, 2 misses; L2 4,096
 * reads, 32 misses.
 */
class StorageEngineExampleTest {
  @TempDir
  Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  @Test
  void indexAndBloomBlocksHitTheL1AndDataBlocksTheL2() throws Exception {
    StorageEngineExample.Result r = StorageEngineExample.run(StorageEngineExample.writeSite(dir), dir,
        new PrintStream(out, true, StandardCharsets.UTF_8));
    assertEquals(2 * StorageEngineExample.ROWS, r.rowsFound());
    assertEquals(new StorageEngineExample.Result(4096, 8190, 2, 4064, 32), r);
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("hfile-0001: 2,048 rows in 32 data blocks of 65,536 bytes"), text);
    assertTrue(text.contains("L1 LruBlockCache (index, bloom) + L2 BucketCache (data)"), text);
    assertTrue(text.contains("pass 1: index 2,047 hits / 1 misses, bloom 2,047 / 1, data 2,016 / 32;"
        + " L1 4,094 / 2, L2 2,016 / 32"), text);
    assertTrue(text.contains("pass 2: index 4,095 hits / 1 misses, bloom 4,095 / 1, data 4,064 / 32;"
        + " L1 8,190 / 2, L2 4,064 / 32"), text);
  }

  @Test
  void anL1AloneServesEveryBlock() throws Exception {
    Path site = SiteXml.write(dir.resolve("l1-only.xml"), "hfile.block.cache.memory.size", "64m");
    StorageEngineExample.Result r = StorageEngineExample.run(site, dir,
        new PrintStream(out, true, StandardCharsets.UTF_8));
    // All three kinds in one tier: 12,288 reads, 2 + 32 misses.
    assertEquals(new StorageEngineExample.Result(4096, 12_254, 34, 0, 0), r);
  }
}
