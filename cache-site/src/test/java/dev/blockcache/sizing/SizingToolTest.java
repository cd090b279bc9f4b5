package dev.blockcache.sizing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.testing.SiteXml;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: the printed report, exit statuses, and errors that name the argument and value. */
class SizingToolTest {
  @TempDir
  Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return SizingTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String published() throws Exception {
    return SiteXml.write(dir.resolve("hbase-site.xml"), "hfile.block.cache.size", "0.2",
        "hbase.bucketcache.ioengine", "offheap", "hbase.bucketcache.size", "4096").toString();
  }

  @Test
  void printsThePublishedStacksFigures() throws Exception {
    assertEquals(0, run("--site=" + published(), "--heap", "32g", "--ram=128g"), err.toString(StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("L1 (LRU, on heap): capacity 6.40 GiB"), text);
    assertTrue(text.contains("103,594 blocks of 64.0 KiB"), text);
    assertTrue(text.contains("2,044 buckets of 2.00 MiB"), text);
    assertTrue(text.contains("stored as 65,592 bytes (header + block) in an item of 66,560 bytes, 31 per bucket"),
        text);
    assertTrue(text.contains("63,364 blocks = 3.87 GiB of data"), text);
    assertTrue(text.contains("page cache: 92.0 GiB = 71.9% of RAM"), text);
    assertTrue(text.contains("up to 3.87 GiB (4,152,623 rows)"), text);
    assertTrue(text.contains("checks: OK"), text);
  }

  @Test
  void problemsExitWithOne() throws Exception {
    assertEquals(1, run("--site=" + published(), "--heap=32g", "--ram=128g", "--direct-memory=1g"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("problems:"));
  }

  @Test
  void badArgumentsExitWithTwoNamingArgumentValueAndWhatIsAccepted() throws Exception {
    assertEquals(2, run("--site=" + published(), "--heap=lots", "--ram=128g"));
    String message = err.toString(StandardCharsets.UTF_8);
    assertTrue(message.contains("--heap=lots is not accepted") && message.contains("k, m, g or t suffix"), message);

    err.reset();
    assertEquals(2, run("--site=" + published(), "--heap=32g"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--ram"), err.toString(StandardCharsets.UTF_8));

    err.reset();
    assertEquals(2, run("--site=" + published(), "--heap=32g", "--ram=128g", "--xmx=1g"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("argument=--xmx=1g is not accepted"),
        err.toString(StandardCharsets.UTF_8));

    err.reset();
    assertEquals(2, run("--site=" + dir.resolve("missing.xml"), "--heap=32g", "--ram=128g"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("missing.xml"), err.toString(StandardCharsets.UTF_8));
  }
}
