package dev.blockcache.jmh;

import dev.blockcache.jmh.experiments.ExperimentReport;
import dev.blockcache.jmh.report.Report;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs this module's benchmarks through JMH's Runner API and writes the JMH JSON and a Markdown {@link Report}: what
 * {@code ./mvnw -B -Pbench verify} executes.
 *
 * <p>System properties:
 * <ul>
 *   <li>{@code bench.include} (default {@code .*}): a regular expression over benchmark names, as JMH's include.</li>
 *   <li>{@code bench.smoke=true}: 1 fork, 1 warmup of 100 ms, 1 measurement of 200 ms (a CI check that every
 *       benchmark runs; its figures mean nothing).</li>
 *   <li>{@code bench.full=true}: the lengths annotated on {@link BenchmarkDefaults} (2 forks, 5 × 2 s warmup,
 *       5 × 2 s measurement).</li>
 *   <li>neither (quick, the default): 1 fork, 2 × 500 ms warmup, 3 × 1 s measurement.</li>
 *   <li>{@code bench.prof} (default none): a JMH profiler to add, e.g. {@code gc} for allocated bytes per operation,
 *       with options after a colon as for JMH's {@code -prof}, e.g. {@code stack:lines=1;top=25}.</li>
 *   <li>{@code bench.params} (default none): restricts parameters, {@code NAME=v1,v2;NAME2=v3}, e.g.
 *       {@code competitor=OURS_LRU,HBASE_LRU;distribution=ZIPF}.</li>
 *   <li>{@code bench.jvmArgs} (default none): extra flags for every fork, space-separated, added to (not replacing)
 *       {@link BenchmarkDefaults}' flags, e.g. {@code -Dio.netty.leakDetection.level=disabled}.</li>
 *   <li>{@code bench.results} (default {@code results}): the directory the files go to, created if missing;
 *       written as {@code jmh-MODE.json} and {@code report-MODE.md}, plus {@code experiments-MODE.md} and its PNG
 *       charts when the run included experiments ({@link ExperimentReport}).</li>
 * </ul>
 *
 * <p>Thread-safety: a main; not for concurrent use.
 */
public final class Bench {
  private Bench() {
  }

  /** The run lengths a mode stands for. */
  enum Mode {
    SMOKE, QUICK, FULL;

    static Mode fromProperties() {
      boolean smoke = Boolean.getBoolean("bench.smoke");
      boolean full = Boolean.getBoolean("bench.full");
      if (smoke && full) {
        throw new IllegalArgumentException("bench.smoke and bench.full are exclusive; set one of them");
      }
      return smoke ? SMOKE : full ? FULL : QUICK;
    }

    void apply(ChainedOptionsBuilder options) {
      switch (this) {
        case SMOKE:
          options.forks(1).warmupIterations(1).warmupTime(TimeValue.milliseconds(100))
              .measurementIterations(1).measurementTime(TimeValue.milliseconds(200));
          break;
        case QUICK:
          // Warmup 2 x 500 ms: the setups already run every code path, and it keeps the whole quick suite near
          // 15 minutes on 2 cores (2 x 1 s took it to 16.4 minutes once experiments 3 and 4 joined).
          options.forks(1).warmupIterations(2).warmupTime(TimeValue.milliseconds(500))
              .measurementIterations(3).measurementTime(TimeValue.seconds(1));
          break;
        default:
          break; // the annotated defaults
      }
    }
  }

  /**
   * Adds the profiler {@code spec} names, if any: {@code NAME} or {@code NAME:OPTIONS} as JMH's {@code -prof} takes
   * it (e.g. {@code stack:lines=1;top=25}); blank adds none.
   */
  static void addProfiler(ChainedOptionsBuilder options, String spec) {
    String profiler = spec.trim();
    if (profiler.isEmpty()) {
      return;
    }
    int colon = profiler.indexOf(':');
    if (colon < 0) {
      options.addProfiler(profiler);
    } else if (colon == 0) {
      throw new IllegalArgumentException("bench.prof '" + spec + "' has options but no profiler name before ':'");
    } else {
      options.addProfiler(profiler.substring(0, colon), profiler.substring(colon + 1));
    }
  }

  public static void main(String[] args) throws RunnerException, IOException {
    Mode mode = Mode.fromProperties();
    String name = mode.name().toLowerCase(Locale.ROOT);
    Path dir = Path.of(System.getProperty("bench.results", "results")).toAbsolutePath().normalize();
    Files.createDirectories(dir);
    Path json = dir.resolve("jmh-" + name + ".json");
    Path markdown = dir.resolve("report-" + name + ".md");

    ChainedOptionsBuilder options = new OptionsBuilder()
        .include(System.getProperty("bench.include", ".*"))
        .shouldFailOnError(true)
        .jvmArgs() // forks get BenchmarkDefaults' flags only, not this driver's -Xmx and -Dbench.* flags
        .resultFormat(ResultFormatType.JSON)
        .result(json.toString());
    mode.apply(options);
    addProfiler(options, System.getProperty("bench.prof", ""));
    String extraFlags = System.getProperty("bench.jvmArgs", "").trim();
    if (!extraFlags.isEmpty()) {
      // Prepend: an append given here would replace the annotated jvmArgsAppend instead of adding to it.
      options.jvmArgsPrepend(extraFlags.split("\\s+"));
    }
    for (String spec : System.getProperty("bench.params", "").split(";")) {
      if (spec.isBlank()) {
        continue;
      }
      int eq = spec.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("bench.params: expected NAME=v1,v2 but found '" + spec + "'");
      }
      options.param(spec.substring(0, eq).trim(), spec.substring(eq + 1).trim().split(","));
    }

    new Runner(options.build()).run();
    Report.write(json, markdown, "Benchmarks (" + name + " mode)");
    System.out.println("JMH results: " + json);
    System.out.println("Report:      " + markdown);
    Path experiments = ExperimentReport.write(json, dir, name);
    if (experiments != null) {
      System.out.println("Experiments: " + experiments);
    }
  }
}
