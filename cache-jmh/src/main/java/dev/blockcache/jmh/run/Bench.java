package dev.blockcache.jmh.run;

import dev.blockcache.jmh.BenchmarkDefaults;
import dev.blockcache.jmh.experiments.ExperimentReport;
import dev.blockcache.jmh.plan.ResultFiles;
import dev.blockcache.jmh.plan.RunPlan;
import dev.blockcache.jmh.report.Report;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
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
 *   <li>neither (quick, the default): 1 fork, 2 × 300 ms warmup, 3 × 500 ms measurement, over the cells
 *       {@link dev.blockcache.jmh.plan.QuickCells} keeps (unless {@code bench.params} names the cells); benchmarks
 *       that take longer to reach steady state get the warmup {@code QuickCells.quickWarmup} gives them.</li>
 *   <li>{@code bench.prof} (default none): a JMH profiler to add, e.g. {@code gc} for allocated bytes per operation,
 *       with options after a colon as for JMH's {@code -prof}, e.g. {@code stack:lines=1;top=25}.</li>
 *   <li>{@code bench.params} (default none): restricts parameters, {@code NAME=v1,v2;NAME2=v3}, e.g.
 *       {@code competitor=OURS_LRU,HBASE_LRU;distribution=ZIPF}.</li>
 *   <li>{@code bench.jvmArgs} (default none): extra flags for every fork, space-separated, added to (not replacing)
 *       {@link BenchmarkDefaults}' flags, e.g. {@code -Dio.netty.leakDetection.level=disabled}.</li>
 *   <li>{@code bench.optional=true}: when {@code bench.include} matches none of the benchmarks on the classpath,
 *       print so and write nothing instead of failing (for a second module run by the same {@code -Pbench} command,
 *       such as cache-hbase-bench).</li>
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
        case SMOKE -> options.forks(1).warmupIterations(1).warmupTime(TimeValue.milliseconds(100))
            .measurementIterations(1).measurementTime(TimeValue.milliseconds(200));
        // Short iterations: the setups run every measured path before the first warmup, and the quick suite's
        // budget (README) is spent mostly on fork start and pre-population, not on measurement.
        case QUICK -> options.forks(1).warmupIterations(2).warmupTime(TimeValue.milliseconds(300))
            .measurementIterations(3).measurementTime(TimeValue.milliseconds(500));
        default -> {
          // the annotated defaults
        }
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
    String include = System.getProperty("bench.include", ".*");
    if (Boolean.getBoolean("bench.optional") && !RunPlan.matchesAny(include)) {
      System.out.println("bench.include '" + include + "' matches no benchmark here: nothing to run");
      return;
    }
    String name = mode.name().toLowerCase(Locale.ROOT);
    Path dir = Path.of(System.getProperty("bench.results", "results")).toAbsolutePath().normalize();
    Files.createDirectories(dir);
    Path json = dir.resolve("jmh-" + name + ".json");
    Path markdown = dir.resolve("report-" + name + ".md");
    Map<String, List<String>> userParams = parseParams(System.getProperty("bench.params", ""));

    List<RunPlan.Run> runs = !userParams.isEmpty() || mode == Mode.FULL
        ? List.of(new RunPlan.Run(List.of(include), userParams, RunPlan.quickWarmup(include), 0))
        : mode == Mode.SMOKE ? RunPlan.smoke(include).runs() : RunPlan.quick(include).runs();
    List<Path> parts = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      Path part = runs.size() == 1 ? json : dir.resolve("jmh-" + name + ".part" + i + ".json");
      new Runner(options(mode, runs.get(i), part)).run();
      parts.add(part);
    }
    if (runs.size() > 1) {
      ResultFiles.join(parts, json);
      for (Path part : parts) {
        Files.delete(part);
      }
    }
    Report.write(json, markdown, "Benchmarks (" + name + " mode)");
    System.out.println("JMH results: " + json);
    System.out.println("Report:      " + markdown);
    Path experiments = ExperimentReport.write(json, dir, name);
    if (experiments != null) {
      System.out.println("Experiments: " + experiments);
    }
  }

  private static Options options(Mode mode, RunPlan.Run run, Path json) {
    ChainedOptionsBuilder options = new OptionsBuilder()
        .shouldFailOnError(true)
        .jvmArgs() // forks get BenchmarkDefaults' flags only, not this driver's -Xmx and -Dbench.* flags
        .resultFormat(ResultFormatType.JSON)
        .result(json.toString());
    run.includes().forEach(options::include);
    mode.apply(options);
    if (mode == Mode.QUICK && !run.quickWarmup().isZero()) {
      options.warmupIterations((int) run.quickWarmup().toSeconds()).warmupTime(TimeValue.seconds(1));
    }
    if (mode == Mode.QUICK && run.quickForks() > 0) {
      options.forks(run.quickForks());
    }
    addProfiler(options, System.getProperty("bench.prof", ""));
    String extraFlags = System.getProperty("bench.jvmArgs", "").trim();
    if (!extraFlags.isEmpty()) {
      // Prepend: an append given here would replace the annotated jvmArgsAppend instead of adding to it.
      options.jvmArgsPrepend(extraFlags.split("\\s+"));
    }
    run.params().forEach((param, values) -> options.param(param, values.toArray(String[]::new)));
    return options.build();
  }

  /** {@code NAME=v1,v2;NAME2=v3} as a map, in the order given; blank gives an empty map. */
  static Map<String, List<String>> parseParams(String specs) {
    Map<String, List<String>> params = new LinkedHashMap<>();
    for (String spec : specs.split(";", -1)) {
      if (spec.isBlank()) {
        continue;
      }
      int eq = spec.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("bench.params: expected NAME=v1,v2 but found '" + spec + "'");
      }
      params.put(spec.substring(0, eq).trim(), List.of(spec.substring(eq + 1).trim().split(",")));
    }
    return params;
  }
}
