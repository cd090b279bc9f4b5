package dev.blockcache.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drop-in jar on a RegionServer's class path (run by failsafe after {@code package}): a JVM whose class path is
 * HBase's jars (this module's test class path without our modules, our netty and Caffeine 3), the shaded jar, and
 * HBase's {@code hbase-external-blockcache} with {@code spymemcached}. {@link DropInProbe} builds the cache through
 * {@code BlockCacheFactory} with the two documented keys. Proves HBase loads {@link HBaseL2Cache} from the jar as the
 * L2 of its {@code InclusiveCombinedBlockCache}, and that data blocks cached on write are read back as L2 hits
 * through the relocated netty. Without the two memcached jars HBase falls back to its L1 alone
 * (docs/hbase.md shows the three cases).
 */
class DropInJarIT {
  @TempDir
  Path dir;

  @Test
  void hbaseLoadsTheDropInJarAsItsExternalL2() throws IOException, InterruptedException {
    Path jar = Path.of(System.getProperty("blockcache.hbaseLibJar", "missing"));
    assertTrue(Files.isRegularFile(jar), "drop-in jar not built: " + jar);
    List<String> output = run(hostClassPath() + File.pathSeparator + jar);
    String all = String.join("\n", output);
    assertTrue(output.contains("regionserver dev.blockcache.hbase.BlockCacheRegionServer"), all);
    assertTrue(output.contains("cache org.apache.hadoop.hbase.io.hfile.InclusiveCombinedBlockCache"), all);
    assertTrue(output.contains("l2 dev.blockcache.hbase.HBaseL2Cache"), all);
    assertTrue(output.contains("cells 2000"), all);
    long hits = output.stream().filter(l -> l.startsWith("l2hits ")).mapToLong(l -> Long.parseLong(l.substring(7)))
        .findFirst().orElse(0);
    assertTrue(hits > 0, all);
  }

  /** This JVM's class path without our code and the libraries the jar relocates: what HBase's lib/ offers. */
  private static String hostClassPath() {
    String separator = File.pathSeparator;
    return Stream.of(System.getProperty("java.class.path").split(separator))
        .filter(e -> !e.contains("/dev/blockcache/") && !e.contains("cache-core") && !e.contains("cache-bucket")
            && !(e.contains("/cache-hbase/target/") && !e.endsWith("test-classes")) && !e.contains("/io/netty/netty-")
            && !e.contains("/caffeine/3.") && !e.contains("junit") && !e.contains("opentest4j"))
        .collect(Collectors.joining(separator));
  }

  private List<String> run(String classPath) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
        "-cp", classPath, DropInProbe.class.getName(), dir.toString()));
    Path log = dir.resolve("probe.log");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), String.join("\n", lines));
    return lines;
  }
}
