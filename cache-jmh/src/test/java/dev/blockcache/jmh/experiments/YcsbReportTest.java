package dev.blockcache.jmh.experiments;

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

class YcsbReportTest {
  private static final String[] WORKLOADS = {"C", "A", "F", "UPDATE_ONLY"};

  @TempDir Path dir;

  private static String result(String workload, String dataset, double ops, double p99, double l2Hit) {
    return JmhJson.result("YcsbExperiment.operation", 2,
        "\"workload\":\"" + workload + "\",\"dataset\":\"" + dataset + "\"", ops,
        Map.of("meanUs", p99 / 4, "p95Us", p99 / 2, "p99Us", p99, "l1HitRatio", 1.0, "l2HitRatio", l2Hit));
  }

  /** FITS at 100k ops/s, 2 µs p99, 100% hits; LARGE at {@code large[w]} ops/s, 200 µs p99, {@code largeHit}. */
  private Path json(double[] large, double largeHit) throws IOException {
    List<String> results = new ArrayList<>();
    for (int w = 0; w < WORKLOADS.length; w++) {
      results.add(result(WORKLOADS[w], "FITS", 100_000, 2, 1.0));
      results.add(result(WORKLOADS[w], "LARGE", large[w], 200, largeHit));
    }
    return JmhJson.write(dir, results);
  }

  @Test
  void aCollapseOnTheLargeDatasetIsReproduced() throws IOException {
    String md = Files.readString(ExperimentReport.write(json(new double[] {2_000, 10_000, 5_000, 95_000}, 0.4),
        dir, "t"));
    assertTrue(md.contains("| C | 100,000 | 2,000 | ×50.00 | 165,063 | 3,030 | ×54.48 |"), md);
    assertTrue(md.contains("C falls on the large dataset (published ×54.5, 165k → 3k); FITS/LARGE: measured ×50.00 "
        + "→ **shape reproduced**"), md);
    assertTrue(md.contains("update-only unchanged within ±10% (published ×1.01); FITS/LARGE: measured ×1.05 → "
        + "**shape reproduced**"), md);
    assertTrue(md.contains("LARGE/FITS: measured ×100.00 → **shape reproduced**"), md);
    assertTrue(md.contains("l2CacheHitRatio FITS/LARGE: measured ×2.50 → **shape reproduced**"), md);
    assertTrue(md.contains("| C | LARGE | 50.0 | 100.0 | 200.0 | 100.0% | 40.0% | 13.19 / 55.50 / 110.85 | 83.0% |"),
        md);
    assertTrue(md.contains("| UPDATE_ONLY | FITS | 0.5 | 1.0 | 2.0 | — (no reads) | — (no reads) |"), md);
    assertTrue(Files.size(dir.resolve("experiment4-ycsb-t.png")) > 0);
  }

  @Test
  void noCollapseAndASlowerUpdateOnlyAreNotReproduced() throws IOException {
    String md = Files.readString(ExperimentReport.write(json(new double[] {95_000, 100_000, 100_000, 50_000},
        1.0), dir, "t"));
    assertTrue(md.contains("FITS/LARGE: measured ×1.05 → **shape NOT reproduced**"), md);
    assertTrue(md.contains("update-only unchanged within ±10% (published ×1.01); FITS/LARGE: measured ×2.00 → "
        + "**shape NOT reproduced**"), md);
    assertTrue(md.contains("l2CacheHitRatio FITS/LARGE: measured ×1.00 → **shape NOT reproduced**"), md);
  }

  @Test
  void aMissingWorkloadFailsTheReport() throws IOException {
    Path json = json(new double[] {1, 1, 1, 1}, 0.5);
    Files.writeString(json, Files.readString(json).replace("\"workload\":\"F\"", "\"workload\":\"B\""));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ExperimentReport.write(json, dir, "t"));
    assertTrue(e.getMessage().contains("workload=F, dataset=FITS"), e.getMessage());
  }
}
