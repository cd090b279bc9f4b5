package dev.blockcache.sim;

import dev.blockcache.sim.policy.PolicyKind;
import dev.blockcache.sim.trace.Trace;
import dev.blockcache.sim.trace.TraceSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The trace-driven hit-ratio simulator: replays cache traces through our real caches (L1 LRU, L1 TinyLFU, L2) and
 * reference policies (LRU, Belady's OPT, plain Caffeine) at cache sizes given as fractions of each trace's distinct
 * keys, and writes a Markdown table and charts ({@link HitRatioReport}). Flags: {@link SimOptions}.
 *
 * <p>Every access is a read; a miss inserts the block (read-through). Each (trace, size, policy) replay starts from an
 * empty cache and runs alone on the calling thread. The caches that hash keys into their decisions replay several
 * times with the keys relabelled and report the mean ({@link Replay}): a climbing window, a sketch's collisions and
 * Caffeine's random admission (its defence against hash flooding) move one replay's figure by more than the targets'
 * tolerance.
 *
 * <p>Run: {@code ./mvnw -B verify -Psim -pl cache-sim -am -DskipTests} (unpacks the traces, then runs this main with
 * {@code -Dsim.args="..."}); see docs/benchmarks.md, "Hit-ratio simulator".
 *
 * <p>Thread-safety: a main; runs on one thread.
 */
public final class HitRatioSimulator {
  private HitRatioSimulator() {}

  public static void main(String[] args) throws IOException {
    System.setProperty("java.awt.headless", "true");
    SimOptions options;
    try {
      options = SimOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("HitRatioSimulator: " + e.getMessage());
      System.exit(2);
      return;
    }
    Path table = run(options, "HitRatioSimulator " + String.join(" ", args));
    System.out.println("hit-ratio table: " + table.toAbsolutePath());
  }

  /** Runs every replay {@code options} ask for and writes the report; returns the table's path. */
  static Path run(SimOptions options, String command) throws IOException {
    List<HitRatio> results = new ArrayList<>();
    for (String spec : options.traces()) {
      Trace trace = TraceSpec.parse(spec, options.tracesDir()).read(options.maxEvents());
      System.err.printf(Locale.ROOT, "%s: %,d accesses, %,d distinct keys%n", trace.name(), trace.length(),
          trace.distinctKeys());
      for (double fraction : options.sizes()) {
        for (PolicyKind policy : options.policies()) {
          HitRatio result = Replay.run(trace, fraction, policy, options.setup(), options.runs());
          System.err.printf(Locale.ROOT, "  %-6s %-11s %6.2f%%%n", HitRatioReport.percent(fraction),
              policy.label(), 100 * result.ratio());
          results.add(result);
        }
      }
    }
    return HitRatioReport.write(results, options.policies(), command + "\n(" + options.describe() + ")",
        options.results());
  }
}
