package dev.blockcache.jmh.experiments;

import dev.blockcache.jmh.report.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One JMH result of an experiment, read from JMH's JSON: the benchmark's simple name ({@code Class.method}), thread
 * count, parameters, score and, when the run used {@code -prof gc}, the allocation rate (MB/s) and GC time (ms);
 * {@code NaN} when absent; and every secondary metric's score by name (aux counters, profiler figures without
 * JMH's leading middle dot).
 *
 * <p>Thread-safety: immutable.
 */
record ExperimentResult(String benchmark, int threads, Map<String, String> params, double score, String unit,
    double allocRateMbPerSec, double gcTimeMs, Map<String, Double> secondary) {

  /** Every result in {@code json} whose benchmark lives in this package. */
  static List<ExperimentResult> read(Path json) throws IOException {
    Object parsed = Json.parse(Files.readString(json, StandardCharsets.UTF_8));
    List<ExperimentResult> out = new ArrayList<>();
    for (Object o : (List<?>) parsed) {
      Map<?, ?> run = (Map<?, ?>) o;
      String full = (String) run.get("benchmark");
      String prefix = ExperimentResult.class.getPackageName() + ".";
      if (!full.startsWith(prefix)) {
        continue;
      }
      Map<String, String> params = new LinkedHashMap<>();
      Object p = run.get("params");
      if (p instanceof Map<?, ?> m) {
        m.forEach((k, v) -> params.put(String.valueOf(k), String.valueOf(v)));
      }
      Map<?, ?> primary = (Map<?, ?>) run.get("primaryMetric");
      Map<?, ?> secondary = run.get("secondaryMetrics") instanceof Map<?, ?> s ? s : Map.of();
      out.add(new ExperimentResult(full.substring(prefix.length()), ((Number) run.get("threads")).intValue(), params,
          ((Number) primary.get("score")).doubleValue(), (String) primary.get("scoreUnit"),
          metric(secondary, "gc.alloc.rate"), metric(secondary, "gc.time"), scores(secondary)));
    }
    return out;
  }

  private static Map<String, Double> scores(Map<?, ?> secondary) {
    Map<String, Double> out = new LinkedHashMap<>();
    secondary.forEach((k, v) -> {
      if (v instanceof Map<?, ?> m && m.get("score") instanceof Number n) {
        out.put(String.valueOf(k).replace("\u00b7", ""), n.doubleValue());
      }
    });
    return Map.copyOf(out);
  }

  /** The score of secondary metric {@code name} (e.g. an aux counter), or {@code NaN} if the run has none. */
  double secondary(String name) {
    Double v = secondary.get(name);
    return v == null ? Double.NaN : v;
  }

  private static double metric(Map<?, ?> secondary, String name) {
    Object m = secondary.get("\u00b7" + name); // JMH prefixes profiler metrics with a middle dot
    if (m == null) {
      m = secondary.get(name);
    }
    return m instanceof Map<?, ?> map && map.get("score") instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  /** The experiment class's simple name. */
  String experiment() {
    return benchmark.substring(0, benchmark.indexOf('.'));
  }
}
