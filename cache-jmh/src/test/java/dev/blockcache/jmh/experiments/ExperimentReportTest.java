package dev.blockcache.jmh.experiments;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentReportTest {
  @TempDir Path dir;

  private static String result(String method, int threads, String params, double score, double alloc) {
    return JmhJson.result(method, threads, params, score, Map.of("\u00b7gc.alloc.rate", alloc, "\u00b7gc.time", 7.0));
  }

  private static String exp1(String size, String setting, double score) {
    return result("BlockSizeExperiment.randomRowRead", 1,
        "\"blockSize\":\"" + size + "\",\"setting\":\"" + setting + "\"", score, 1);
  }

  private Path json(List<String> results) throws IOException {
    return JmhJson.write(dir, results);
  }

  private static List<String> exp1(double cached4k, double cached64k) {
    return List.of(exp1("4096", "PAGE_CACHE", 300), exp1("65536", "PAGE_CACHE", 100),
        exp1("4096", "CACHED", cached4k), exp1("65536", "CACHED", cached64k),
        exp1("4096", "LARGE", 50), exp1("65536", "LARGE", 20));
  }

  @Test
  void verdictsFollowTheMeasuredRatios() throws IOException {
    List<String> results = new ArrayList<>(exp1(1100, 1000));
    int[] threads = {5, 20, 75};
    double[] copy = {100, 150, 90}; // peaks at 20 then falls
    for (int i = 0; i < threads.length; i++) {
      results.add(result("ThreadScalingExperiment.threads" + threads[i], threads[i], "\"readPath\":\"ZERO_COPY\"",
          copy[i] * 3, 10));
      results.add(result("ThreadScalingExperiment.threads" + threads[i], threads[i], "\"readPath\":\"COPY\"",
          copy[i], 900));
    }
    String md = Files.readString(ExperimentReport.write(json(results), dir, "t"));
    assertTrue(md.contains("measured ×1.10 → **shape reproduced**"), md);
    assertTrue(md.contains("measured ×3.00 → **shape reproduced**"), md);
    assertTrue(md.contains("copy peaks at 20 threads"), md);
    assertTrue(md.contains("| 20 | 450 | 150 | ×3.00 | 10 | 900 | 7 | 7 |"), md);
    assertTrue(Files.size(dir.resolve("experiment1-block-size-t.png")) > 0);
    assertTrue(Files.size(dir.resolve("experiment2-thread-scaling-t.png")) > 0);
  }

  @Test
  void aSlower4kCachedReadIsReportedAsNotReproduced() throws IOException {
    String md = Files.readString(ExperimentReport.write(json(exp1(900, 1000)), dir, "t"));
    assertTrue(md.contains("measured ×0.90 → **shape NOT reproduced**"), md);
    assertTrue(!md.contains("Thread scaling"), "experiment 2 has no results and no section");
  }

  @Test
  void anIncompleteExperimentFailsTheReport() throws IOException {
    Path file = json(exp1(1100, 1000).subList(0, 5));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ExperimentReport.write(file, dir, "t"));
    assertTrue(e.getMessage().contains("blockSize=65536, setting=LARGE"), e.getMessage());
  }

  @Test
  void noExperimentResultsMeansNoReport() throws IOException {
    assertNull(ExperimentReport.write(json(List.of()), dir, "t"));
  }
}
