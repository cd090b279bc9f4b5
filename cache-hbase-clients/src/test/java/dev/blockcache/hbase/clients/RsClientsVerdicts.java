package dev.blockcache.hbase.clients;

import dev.blockcache.hbase.clients.RsClientsReport.Window;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The report's verdicts: issue 40's targets (ratios to HBase's BucketCache in the same round) and the seed studies'
 * shapes (HBASE-11425's zero-copy gains and thread scaling; the sizing study's falls from a cached to an uncached
 * dataset), each computed from the windows and stated with the figure that decides it. A verdict whose cells were not
 * run says so.
 *
 * <p>Thread-safety: stateless.
 */
final class RsClientsVerdicts {
  private static final List<ClientStack> OURS = List.of(ClientStack.OURS_HOOK, ClientStack.OURS_EXCLUSIVE);

  private RsClientsVerdicts() {}

  static void append(StringBuilder out, List<Window> all, BenchConfig c) {
    out.append("## Targets (issue 40)\n\n");
    for (ClientStack ours : OURS) {
      Predicate<Window> reads = w -> w.client().equals("PE") && w.label().startsWith("randomRead");
      double tput = medianRatio(all, ours, reads, Window::opsPerSecond);
      double bytes = medianRatio(all, ours, reads, Window::rsBytesPerOp);
      line(out, ours + ", fits, PE randomRead and multi-get: throughput ≥ 1.0× HBase", tput >= 1.0,
          fmt("%.2f×", tput));
      line(out, ours + ", fits, PE randomRead and multi-get: RS bytes per row ≤ 1.05× HBase", bytes <= 1.05,
          fmt("%.2f×", bytes));
      Predicate<Window> largeC = w -> w.dataset().equals("large") && w.label().equals("c");
      double gain = 100 * (median(all, ours, largeC, w -> w.rs().l2HitRatio())
          - median(all, ClientStack.HBASE_BUCKET, largeC, w -> w.rs().l2HitRatio()));
      line(out, ours + ", large, YCSB C: L2 hit ratio ≥ HBase's + 3 points", gain >= 3, fmt("%+.1f points", gain));
      double cTput = medianRatio(all, ours, largeC, Window::opsPerSecond);
      double cP99 = medianRatio(all, ours, largeC, Window::p99Micros);
      // Were an operation's time all device reads, throughput would scale with 1 / device reads per operation: what
      // the misses allow at most, before any saving of CPU per operation. Counted at the device, as the caches'
      // counters may count one miss more than once.
      double missBound = median(all, ClientStack.HBASE_BUCKET, largeC, Window::deviceReadsPerOp)
          / median(all, ours, largeC, Window::deviceReadsPerOp);
      line(out, ours + ", large, YCSB C on `" + c.device() + "`: throughput ≥ 1.15× HBase", cTput >= 1.15,
          fmt("%.2f×", cTput) + fmt("; the device reads per operation alone allow at most %.2f×", missBound));
      line(out, ours + ", large, YCSB C on `" + c.device() + "`: p99 ≤ 0.9× HBase", cP99 <= 0.9, fmt("%.2f×", cP99));
      StringBuilder perThreads = new StringBuilder();
      boolean never = true;
      for (int threads : c.peThreads()) {
        Predicate<Window> at = w -> w.client().equals("PE") && w.label().startsWith("randomRead")
            && w.threads() == threads;
        double r = medianRatio(all, ours, at, Window::opsPerSecond);
        never &= Double.isNaN(r) || r >= 1.0;
        perThreads.append(perThreads.length() == 0 ? "" : ", ").append(threads).append(": ").append(fmt("%.2f×", r));
      }
      line(out, ours + ", PE thread scaling: never below HBase at any thread count", never,
          perThreads.toString());
    }
    out.append('\n').append("## The seeds' shapes through RegionServers\n\n");
    for (String command : List.of("randomRead multiGet=100", "scanRange100", "scanRange1000")) {
      StringBuilder figures = new StringBuilder();
      for (int threads : c.peThreads()) {
        Predicate<Window> at = w -> w.client().equals("PE") && w.label().equals(command) && w.threads() == threads;
        double zero = median(all, ClientStack.OURS_EXCLUSIVE, at, Window::opsPerSecond);
        double copy = median(all, ClientStack.OURS_EXCLUSIVE_COPY, at, Window::opsPerSecond);
        if (!Double.isNaN(zero / copy)) {
          figures.append(figures.length() == 0 ? "" : ", ").append("at ").append(threads).append(": ")
              .append(fmt("%.2f×", zero / copy));
        }
      }
      out.append("- HBASE-11425, ").append(command).append(", zero-copy (OURS_EXCLUSIVE) over copy ")
          .append("(OURS_EXCLUSIVE_COPY) rows/s (seed: 1.2–2.6× multi-gets, 1.2–1.8× scans): ")
          .append(figures.length() == 0 ? "not run" : figures).append('\n');
    }
    for (ClientStack stack : c.stacks()) {
      StringBuilder scaling = new StringBuilder();
      for (int threads : c.peThreads()) {
        Predicate<Window> at = w -> w.client().equals("PE") && w.label().equals("randomRead") && w.threads() == threads;
        scaling.append(scaling.length() == 0 ? "" : ", ").append(threads).append(": ")
            .append(fmt("%,.0f", median(all, stack, at, Window::opsPerSecond)));
      }
      out.append("- HBASE-11425 thread scaling, PE randomRead rows/s by client threads, ").append(stack).append(": ")
          .append(scaling).append('\n');
    }
    for (ClientStack stack : c.stacks()) {
      StringBuilder falls = new StringBuilder();
      for (String workload : List.of("c", "a", "f", "update-only")) {
        Predicate<Window> fits = w -> w.dataset().equals("fits") && w.label().equals(workload);
        Predicate<Window> large = w -> w.dataset().equals("large") && w.label().equals(workload);
        falls.append(falls.length() == 0 ? "" : ", ").append(workload).append(' ').append(fmt("%.2f×",
            median(all, stack, large, Window::opsPerSecond) / median(all, stack, fits, Window::opsPerSecond)));
      }
      Predicate<Window> fitsC = w -> w.dataset().equals("fits") && w.label().equals("c");
      Predicate<Window> largeC = w -> w.dataset().equals("large") && w.label().equals("c");
      out.append("- Sizing study, ").append(stack).append(": large over fits throughput ").append(falls)
          .append(" (seed: C 0.02×, A 0.09×, F 0.07×, update-only 0.99×); C p99 ")
          .append(fmt("%,.0f", median(all, stack, fitsC, Window::p99Micros))).append(" → ")
          .append(fmt("%,.0f µs", median(all, stack, largeC, Window::p99Micros))).append(", C L2 hit ratio ")
          .append(percent(median(all, stack, fitsC, w -> w.rs().l2HitRatio()))).append(" → ")
          .append(percent(median(all, stack, largeC, w -> w.rs().l2HitRatio()))).append(" %\n");
    }
    out.append('\n');
  }

  private static double median(List<Window> all, ClientStack stack, Predicate<Window> cell,
      ToDoubleFunction<Window> f) {
    return RsClientsReport.median(all.stream().filter(w -> w.stack() == stack).filter(cell).toList(), f);
  }

  private static double medianRatio(List<Window> all, ClientStack stack, Predicate<Window> cell,
      ToDoubleFunction<Window> f) {
    List<Window> mine = all.stream().filter(w -> w.stack() == stack).filter(cell).toList();
    return RsClientsReport.median(RsClientsReport.roundRatios(all, mine, f));
  }

  private static void line(StringBuilder out, String target, boolean met, String figure) {
    boolean ran = !figure.contains("NaN");
    out.append("- ").append(target).append(": **").append(!ran ? "not run" : met ? "met" : "not met").append("** (")
        .append(figure).append(")\n");
  }

  /** A hit ratio in percent, or a dash where the tier saw no lookup. */
  private static String percent(double ratio) {
    return Double.isNaN(ratio) ? "–" : fmt("%.1f", 100 * ratio);
  }

  private static String fmt(String format, double v) {
    return String.format(Locale.ROOT, format, v);
  }
}
