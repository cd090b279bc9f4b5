package dev.blockcache.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportTest {
  private static String result(String competitor, String distribution, double score, double alloc) {
    return "{\"jmhVersion\":\"1.37\",\"benchmark\":\"dev.blockcache.jmh.l1.L1GetBenchmark.get1Thread\","
        + "\"mode\":\"thrpt\",\"threads\":1,\"forks\":1,\"jvmArgs\":[\"-Xms2g\",\"-Xmx2g\"],"
        + "\"jdkVersion\":\"17.0.15\",\"vmName\":\"OpenJDK 64-Bit Server VM\",\"vmVersion\":\"17.0.15+6\","
        + "\"warmupIterations\":2,\"warmupTime\":\"1 s\",\"measurementIterations\":3,\"measurementTime\":\"1 s\","
        + "\"params\":{\"competitor\":\"" + competitor + "\",\"distribution\":\"" + distribution + "\"},"
        + "\"primaryMetric\":{\"score\":" + score + ",\"scoreError\":\"NaN\",\"scoreUnit\":\"ops/s\"},"
        + "\"secondaryMetrics\":{\"\\u00b7gc.alloc.rate.norm\":{\"score\":" + alloc + ",\"scoreUnit\":\"B/op\"}}}";
  }

  @Test
  void jsonParsesJmhShapes() {
    Object parsed = Json.parse("[{\"a\":[1,2.5e3,-3],\"b\":\"x\\\"\\u0041\",\"c\":true,\"d\":null}]");
    Map<?, ?> first = (Map<?, ?>) ((List<?>) parsed).get(0);
    assertEquals(List.of(1.0, 2500.0, -3.0), first.get("a"));
    assertEquals("x\"A", first.get("b"));
    assertEquals(true, first.get("c"));
    assertTrue(first.containsKey("d"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\":1,}"));
    assertThrows(IllegalArgumentException.class, () -> Json.parse("[1] 2"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void ratiosAreTakenAgainstTheBaselineOfTheSameGroup() {
    String json = "[" + String.join(",",
        result("OURS_LRU", "ZIPF", 6_000_000, 24),
        result("HBASE_LRU", "ZIPF", 2_000_000, 152),
        result("CAFFEINE", "ZIPF", 8_000_000, 0),
        result("OURS_LRU", "UNIFORM", 3_000_000, 24),
        result("HBASE_LRU", "UNIFORM", 1_000_000, 152)) + "]";
    String md = Report.render((List<Object>) Json.parse(json), "T", "x.json", "competitor",
        List.of("HBASE_LRU", "CAFFEINE"), Machine.current());
    assertTrue(md.contains("## L1GetBenchmark.get1Thread · threads=1 · distribution=ZIPF"), md);
    assertTrue(md.contains("| OURS_LRU | 6,000,000 | n/a | 24 | 3.00 | 0.75 |"), md);
    assertTrue(md.contains("| HBASE_LRU | 2,000,000 | n/a | 152 | — | 0.25 |"), md);
    // UNIFORM has no CAFFEINE row: only the HBASE_LRU ratio is shown there.
    assertTrue(md.contains("| OURS_LRU | 3,000,000 | n/a | 24 | 3.00 |\n"), md);
    assertTrue(md.contains("| OURS_LRU | 3.00 – 3.00 (2) | 0.75 – 0.75 (1) |"), md);
    assertTrue(md.contains("- JDK: 17.0.15, OpenJDK 64-Bit Server VM 17.0.15+6; JMH 1.37"), md);
    assertTrue(md.contains("- Run: 1 fork(s), warmup 2 × 1 s, measurement 3 × 1 s"), md);
  }

  @Test
  @SuppressWarnings("unchecked")
  void auxiliaryCountersGetAColumnAndARatioToTheBaseline() {
    String ours = result("OURS_ZERO_COPY", "UNIFORM", 40_000, 0)
        .replace("\"secondaryMetrics\":{", "\"secondaryMetrics\":{\"cachedMB\":{\"score\":160.0},"
            + "\"droppedBlocks\":{\"score\":0.0},\"gc.count\":{\"score\":3.0},");
    String hbase = result("HBASE_BUCKET", "UNIFORM", 20_000, 0)
        .replace("\"secondaryMetrics\":{", "\"secondaryMetrics\":{\"cachedMB\":{\"score\":40.0},"
            + "\"droppedBlocks\":{\"score\":10000.0},");
    String md = Report.render((List<Object>) Json.parse("[" + ours + "," + hbase + "]"), "T", "x.json",
        "competitor", Report.DEFAULT_BASELINES, Machine.current());
    assertTrue(md.contains("| competitor | score (ops/s) | ± 99.9% | B/op | ×HBASE_BUCKET | cachedMB |"
        + " cachedMB ×HBASE_BUCKET | droppedBlocks | droppedBlocks ×HBASE_BUCKET |"), md);
    assertTrue(md.contains("| OURS_ZERO_COPY | 40,000 | n/a | 0 | 2.00 | 160 | 4.00 | 0.00 | 0.00 |"), md);
    assertTrue(md.contains("| HBASE_BUCKET | 20,000 | n/a | 0 | — | 40.00 | — | 10,000 | — |"), md);
    assertTrue(!md.contains("gc.count"), "profiler metrics are not auxiliary counters: " + md);
  }
}
