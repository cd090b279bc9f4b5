package dev.blockcache.jmh.experiments;

import static dev.blockcache.jmh.experiments.ReportText.NOISE;
import static dev.blockcache.jmh.experiments.ReportText.find;
import static dev.blockcache.jmh.experiments.ReportText.fmt;
import static dev.blockcache.jmh.experiments.ReportText.ratio;
import static dev.blockcache.jmh.experiments.ReportText.verdict;

import dev.blockcache.jmh.experiments.ExperimentCharts.Scale;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The experiment report's section for experiment 3 ({@link IoEngineDeviceExperiment}): gets/s per engine and thread
 * count, the NVMe/SATA SSD and NVMe/HDD ratios beside Intel's published ones, verdicts computed from the measured
 * figures, and a chart (log scale: the engines span five orders of magnitude).
 *
 * <p>Thread-safety: stateless.
 */
final class DeviceReport {
  static final String EXPERIMENT = "IoEngineDeviceExperiment";
  /** The thread counts of the brief. */
  static final int[] THREADS = {10, 25, 50};
  /** Intel's figures, ops/s at 10, 25, 50 threads. */
  static final double[] PUBLISHED_NVME = {21_641.32, 41_551.63, 60_379.71};
  static final double[] PUBLISHED_SATA = {4_705.20, 5_117.50, 5_339.10};
  static final double[] PUBLISHED_HDD = {267.49, 293.12, 324.27};

  private static final String[] ENGINES = {"HEAP", "OFFHEAP", "FILE_DIRECT", "HDD", "SATA_SSD", "NVME"};
  private static final String[] LABELS = {"heap", "offheap", "file O_DIRECT (real disk)", "file on HDD model",
      "file on SATA SSD model", "file on NVMe model"};

  private DeviceReport() {}

  static void write(List<ExperimentResult> runs, Path dir, String mode, StringBuilder md) throws IOException {
    double[][] score = new double[ENGINES.length][THREADS.length];
    for (int e = 0; e < ENGINES.length; e++) {
      for (int t = 0; t < THREADS.length; t++) {
        score[e][t] = find(runs, EXPERIMENT, THREADS[t], "engine", ENGINES[e]).score();
      }
    }
    int cores = Runtime.getRuntime().availableProcessors();
    double[] nvme = score[5];
    double[] sata = score[4];
    double[] hdd = score[3];
    md.append("## 3. IO engines × devices (Intel file-mode BucketCache brief)\n\n");
    md.append("Single 1 KB row gets from an L2 holding the whole 16 MiB dataset (4 KiB blocks); `file:` engine over ")
        .append("modelled devices (`dev.blockcache.jmh.device`), with heap, offheap and O_DIRECT on the ")
        .append("machine's disk as references; gets/s. Published: 500 GB in file mode on real devices, 32 logical cores.\n\n");
    md.append("| threads |");
    for (String label : LABELS) {
      md.append(' ').append(label).append(" |");
    }
    md.append("\n|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int t = 0; t < THREADS.length; t++) {
      md.append("| ").append(THREADS[t]).append(" |");
      for (int e = 0; e < ENGINES.length; e++) {
        md.append(' ').append(fmt(score[e][t])).append(" |");
      }
      md.append('\n');
    }
    md.append("\n| threads | NVMe/SATA | NVMe/HDD | SATA/HDD | published NVMe | published SATA | published HDD ")
        .append("| published NVMe/SATA | published NVMe/HDD |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int t = 0; t < THREADS.length; t++) {
      md.append("| ").append(THREADS[t]).append(" | ").append(ratio(nvme[t] / sata[t])).append(" | ")
          .append(ratio(nvme[t] / hdd[t])).append(" | ").append(ratio(sata[t] / hdd[t])).append(" | ")
          .append(fmt(PUBLISHED_NVME[t])).append(" | ").append(fmt(PUBLISHED_SATA[t])).append(" | ")
          .append(fmt(PUBLISHED_HDD[t])).append(" | ").append(ratio(PUBLISHED_NVME[t] / PUBLISHED_SATA[t]))
          .append(" | ").append(ratio(PUBLISHED_NVME[t] / PUBLISHED_HDD[t])).append(" |\n");
    }
    int last = THREADS.length - 1;
    md.append("\nShape:\n");
    double nvmeOverSata = minRatio(nvme, sata);
    verdict(md, "NVMe ahead of SATA SSD at every thread count (published ×4.6–×11.3); lowest ratio", nvmeOverSata,
        nvmeOverSata > 1 + NOISE);
    double nvmeOverHdd = minRatio(nvme, hdd);
    verdict(md, "NVMe ahead of HDD at every thread count (published \"81x to 189x\", its table ×81–×186); "
        + "lowest ratio", nvmeOverHdd, nvmeOverHdd > 1 + NOISE);
    double sataOverHdd = minRatio(sata, hdd);
    verdict(md, "SATA SSD ahead of HDD at every thread count (published ×16–×18); lowest ratio", sataOverHdd,
        sataOverHdd > 1 + NOISE);
    double widening = (nvme[last] / sata[last]) / (nvme[0] / sata[0]);
    verdict(md, "the NVMe/SATA gap widens from " + THREADS[0] + " to " + THREADS[last] + " threads (published ×"
        + String.format(Locale.ROOT, "%.2f", (PUBLISHED_NVME[last] / PUBLISHED_SATA[last])
            / (PUBLISHED_NVME[0] / PUBLISHED_SATA[0])) + ": NVMe keeps scaling, SATA saturates); ratio of ratios",
        widening, widening > 1 + NOISE);
    md.append("\nA modelled device holds each read until its modelled completion; the CPU work of a get (index, ")
        .append("block header key and CRC32C check, row copy) and the model's spinning wait for completions under ")
        .append("300 µs still run on the machine's ").append(cores).append(" cores, which caps the SSD models and every ")
        .append("memory engine. Above ").append(cores).append(" threads a run measures contention, not ")
        .append("parallelism.\n");
    Path png = dir.resolve("experiment3-io-engines-" + mode + ".png");
    List<String> series = new ArrayList<>(List.of(LABELS));
    ExperimentCharts.lines(png, "Experiment 3: L2 gets by engine and device", "gets/s (log)", Scale.LOG, THREADS,
        series, score);
    md.append("\n![experiment 3](").append(png.getFileName()).append(")\n\n");
  }

  /** The smallest of {@code a[i] / b[i]}. */
  static double minRatio(double[] a, double[] b) {
    double min = Double.MAX_VALUE;
    for (int i = 0; i < a.length; i++) {
      min = Math.min(min, a[i] / b[i]);
    }
    return min;
  }
}
