package dev.blockcache.jmh.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the report says about the machine it runs on (the benchmarks' machine: the report is generated right after
 * the run): CPU model and count, memory, OS, and the load average, which tells a reader whether others shared it.
 * Linux's {@code /proc} supplies what the JVM does not; elsewhere those lines read "unknown".
 *
 * <p>Thread-safety: immutable.
 */
public final class Machine {
  final String cpu;
  final int cores;
  final String memory;
  final String os;
  final String loadAverage;
  /** The 1-minute load average, NaN when unknown. */
  final double load1;

  private Machine(String cpu, int cores, String memory, String os, String loadAverage, double load1) {
    this.cpu = cpu;
    this.cores = cores;
    this.memory = memory;
    this.os = os;
    this.loadAverage = loadAverage;
    this.load1 = load1;
  }

  /** The machine this JVM runs on. */
  public static Machine current() {
    String cpu = firstValue(Path.of("/proc/cpuinfo"), "model name");
    String memKb = firstValue(Path.of("/proc/meminfo"), "MemTotal");
    String memory = "unknown";
    if (!memKb.equals("unknown")) {
      long kb = Long.parseLong(memKb.replaceAll("[^0-9]", ""));
      memory = String.format("%.1f GiB", kb / (1024.0 * 1024.0));
    }
    String load = "unknown";
    double load1 = Double.NaN;
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+", -1);
      load1 = Double.parseDouble(parts[0]);
      load = parts[0] + " / " + parts[1] + " / " + parts[2] + " (1 / 5 / 15 min)";
    } catch (IOException | RuntimeException e) {
      // not Linux: leave unknown
    }
    String os = System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
        + System.getProperty("os.arch") + ")";
    return new Machine(cpu, Runtime.getRuntime().availableProcessors(), memory, os, load, load1);
  }

  private static String firstValue(Path file, String field) {
    try {
      List<String> lines = Files.readAllLines(file);
      for (String line : lines) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).trim().equals(field)) {
          return line.substring(colon + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: unknown
    }
    return "unknown";
  }
}
