package dev.blockcache.sim;

import dev.blockcache.sim.policy.PolicyKind;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * Writes the simulator's results: {@value #TABLE_FILE}, a Markdown table with one row per trace and size, one
 * hit-ratio column per policy and the {@link Targets} each row misses (summed up above the table), and one PNG bar
 * chart per size ({@code hit-ratio-5pct.png}: a group of bars per trace, one bar per policy).
 *
 * <p>Thread-safety: stateless; XChart renders headless (the caller sets {@code java.awt.headless}).
 */
final class HitRatioReport {
  static final String TABLE_FILE = "hit-ratio.md";
  private static final int CHART_WIDTH = 1280;
  private static final int CHART_HEIGHT = 520;

  private HitRatioReport() {}

  /**
   * Writes the table and charts of {@code results} (all policies of one trace and size adjacent, in the order run)
   * into {@code dir}; returns the table's path.
   */
  static Path write(List<HitRatio> results, List<PolicyKind> policies, String command, Path dir) throws IOException {
    Files.createDirectories(dir);
    Path table = dir.resolve(TABLE_FILE);
    Files.writeString(table, markdown(results, policies, command));
    for (Map.Entry<Double, List<HitRatio>> size : bySize(results).entrySet()) {
      chart(dir.resolve("hit-ratio-" + percent(size.getKey()).replace("%", "pct") + ".png"), size.getKey(),
          size.getValue(), policies);
    }
    return table;
  }

  /** The Markdown table, with the command that produced it and how to read it. */
  static String markdown(List<HitRatio> results, List<PolicyKind> policies, String command) {
    StringBuilder md = new StringBuilder();
    md.append("Hit ratio, % of accesses; size is the cache size in % of the trace's distinct keys (blocks: that many "
        + "blocks; the L2 rounds up to whole buckets of 4 slots).\n\n");
    md.append("```\n").append(command).append("\n```\n\n");
    List<PolicyKind> writers = policies.stream()
        .filter(p -> results.stream().anyMatch(r -> r.policy() == p && r.writes() >= 0)).toList();
    if (!writers.isEmpty()) {
      md.append("Columns \"... writes\": blocks the cache wrote, in % of the accesses (each miss it admitted).\n\n");
    }
    String targets = Targets.summary(new ArrayList<>(rows(results).values()));
    if (!targets.isEmpty()) {
      md.append("Targets (column \"targets\": those a row misses, by how many points beyond the tolerance):\n\n")
          .append(targets).append('\n');
    }
    md.append("| trace | accesses | distinct | size | blocks |");
    StringBuilder rule = new StringBuilder("|---|--:|--:|--:|--:|");
    for (PolicyKind policy : policies) {
      md.append(' ').append(policy.label()).append(" |");
      rule.append("--:|");
    }
    for (PolicyKind policy : writers) {
      md.append(' ').append(policy.label()).append(" writes |");
      rule.append("--:|");
    }
    if (!targets.isEmpty()) {
      md.append(" targets |");
      rule.append("---|");
    }
    md.append('\n').append(rule).append('\n');
    for (List<HitRatio> row : rows(results).values()) {
      HitRatio first = row.get(0);
      md.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %s | %,d |", first.trace(), first.accesses(),
          first.distinctKeys(), percent(first.fraction()), first.blocks()));
      for (PolicyKind policy : policies) {
        md.append(' ').append(cell(row, policy)).append(" |");
      }
      for (PolicyKind policy : writers) {
        md.append(' ').append(writesCell(row, policy)).append(" |");
      }
      if (!targets.isEmpty()) {
        md.append(' ').append(Targets.cell(row)).append(" |");
      }
      md.append('\n');
    }
    return md.toString();
  }

  private static String cell(List<HitRatio> row, PolicyKind policy) {
    for (HitRatio r : row) {
      if (r.policy() == policy) {
        return String.format(Locale.ROOT, "%.2f", 100 * r.ratio());
      }
    }
    return "–";
  }

  private static String writesCell(List<HitRatio> row, PolicyKind policy) {
    for (HitRatio r : row) {
      if (r.policy() == policy && r.writes() >= 0 && r.accesses() > 0) {
        return String.format(Locale.ROOT, "%.2f", 100.0 * r.writes() / r.accesses());
      }
    }
    return "–";
  }

  /** Results grouped by trace and size, in the order they came. */
  private static Map<String, List<HitRatio>> rows(List<HitRatio> results) {
    Map<String, List<HitRatio>> rows = new LinkedHashMap<>();
    for (HitRatio r : results) {
      rows.computeIfAbsent(r.trace() + '\u0000' + r.fraction(), k -> new ArrayList<>()).add(r);
    }
    return rows;
  }

  private static Map<Double, List<HitRatio>> bySize(List<HitRatio> results) {
    Map<Double, List<HitRatio>> sizes = new LinkedHashMap<>();
    for (HitRatio r : results) {
      sizes.computeIfAbsent(r.fraction(), k -> new ArrayList<>()).add(r);
    }
    return sizes;
  }

  private static void chart(Path png, double fraction, List<HitRatio> results, List<PolicyKind> policies)
      throws IOException {
    List<String> traces = new ArrayList<>(rows(results).values().stream().map(row -> row.get(0).trace()).toList());
    CategoryChart chart = new CategoryChartBuilder().width(CHART_WIDTH).height(CHART_HEIGHT)
        .title("Hit ratio, cache of " + percent(fraction) + " of the distinct keys")
        .xAxisTitle("trace").yAxisTitle("hit ratio (%)").build();
    chart.getStyler().setXAxisLabelRotation(45);
    for (PolicyKind policy : policies) {
      List<Double> values = new ArrayList<>();
      for (String trace : traces) {
        values.add(results.stream().filter(r -> r.trace().equals(trace) && r.policy() == policy)
            .mapToDouble(r -> 100 * r.ratio()).findFirst().orElse(0));
      }
      chart.addSeries(policy.label(), traces, values);
    }
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapFormat.PNG);
  }

  /** {@code 0.05} as {@code 5%}, {@code 0.005} as {@code 0.5%}. */
  static String percent(double fraction) {
    return new BigDecimal(Double.toString(fraction)).movePointRight(2).stripTrailingZeros().toPlainString() + "%";
  }
}
