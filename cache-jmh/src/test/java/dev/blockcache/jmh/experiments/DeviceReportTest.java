package dev.blockcache.jmh.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

class DeviceReportTest {
  private static final String[] ENGINES = {"HEAP", "OFFHEAP", "FILE_DIRECT", "HDD", "SATA_SSD", "NVME"};

  @TempDir Path dir;

  /** Results with {@code nvme[t]}, {@code sata[t]} and {@code hdd[t]} at 10, 25, 50 threads; references fixed. */
  private Path json(double[] nvme, double[] sata, double[] hdd) throws IOException {
    List<String> results = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      int threads = DeviceReport.THREADS[t];
      double[] byEngine = {1e6, 9e5, 3e4, hdd[t], sata[t], nvme[t]};
      for (int e = 0; e < ENGINES.length; e++) {
        results.add(JmhJson.result("IoEngineDeviceExperiment.threads" + threads, threads,
            "\"engine\":\"" + ENGINES[e] + "\"", byEngine[e], Map.of()));
      }
    }
    return JmhJson.write(dir, results);
  }

  @Test
  void ratiosAndVerdictsComeFromTheMeasuredFigures() throws IOException {
    Path json = json(new double[] {20_000, 40_000, 60_000}, new double[] {5_000, 5_000, 5_000},
        new double[] {100, 100, 100});
    String md = Files.readString(ExperimentReport.write(json, dir, "t"));
    assertTrue(md.contains("| 10 | ×4.00 | ×200.00 | ×50.00 | 21,641 | 4,705 | 267 | ×4.60 | ×80.91 |"), md);
    assertTrue(md.contains("| 50 | ×12.00 | ×600.00 | ×50.00 |"), md);
    assertTrue(md.contains("NVMe ahead of SATA SSD at every thread count (published ×4.6–×11.3); lowest ratio: "
        + "measured ×4.00 → **shape reproduced**"), md);
    assertTrue(md.contains("ratio of ratios: measured ×3.00 → **shape reproduced**"), md);
    assertTrue(Files.size(dir.resolve("experiment3-io-engines-t.png")) > 0);
  }

  @Test
  void anNvmeModelNoFasterThanSataIsNotReproduced() throws IOException {
    Path json = json(new double[] {30_000, 30_000, 30_000}, new double[] {30_000, 31_000, 32_000},
        new double[] {120, 120, 120});
    String md = Files.readString(ExperimentReport.write(json, dir, "t"));
    assertTrue(md.contains("lowest ratio: measured ×0.94 → **shape NOT reproduced**"), md);
    assertTrue(md.contains("NVMe ahead of HDD at every thread count (published \"81x to 189x\", its table ×81–×186); "
        + "lowest ratio: "
        + "measured ×250.00 → **shape reproduced**"), md);
    assertTrue(md.contains("ratio of ratios: measured ×0.94 → **shape NOT reproduced**"), md);
  }

  @Test
  void aMissingEngineFailsTheReport() throws IOException {
    Path json = json(new double[] {1, 1, 1}, new double[] {1, 1, 1}, new double[] {1, 1, 1});
    String all = Files.readString(json);
    Files.writeString(json, all.replace("\"engine\":\"NVME\"", "\"engine\":\"OTHER\""));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ExperimentReport.write(json, dir, "t"));
    assertEquals("IoEngineDeviceExperiment: no result for engine=NVME, threads=10; run the whole experiment "
        + "(its parameters were restricted or a benchmark failed)", e.getMessage());
  }
}
