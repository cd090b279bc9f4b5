package dev.blockcache.jmh.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Synthetic JMH JSON results for the report tests. Thread-safety: stateless. */
final class JmhJson {
  private JmhJson() {}

  /**
   * One result of {@code method} ({@code Class.method} in this package) with {@code params} already rendered as
   * {@code "k":"v"} pairs and the given secondary metrics (names as JMH writes them).
   */
  static String result(String method, int threads, String params, double score, Map<String, Double> secondary) {
    StringBuilder s = new StringBuilder();
    secondary.forEach((k, v) -> s.append(s.length() == 0 ? "" : ",").append('"').append(k)
        .append("\":{\"score\":").append(String.format(Locale.ROOT, "%s", v)).append('}'));
    return "{\"benchmark\":\"dev.blockcache.jmh.experiments." + method + "\",\"threads\":" + threads
        + ",\"params\":{" + params + "},\"primaryMetric\":{\"score\":" + score + ",\"scoreUnit\":\"ops/s\"},"
        + "\"secondaryMetrics\":{" + s + "}}";
  }

  /** Writes {@code results} as a JMH JSON array to {@code dir/jmh.json}. */
  static Path write(Path dir, List<String> results) throws IOException {
    Path file = dir.resolve("jmh.json");
    Files.writeString(file, "[" + String.join(",", results) + "]");
    return file;
  }
}
