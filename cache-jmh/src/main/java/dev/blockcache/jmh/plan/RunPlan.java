package dev.blockcache.jmh.plan;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Splits a benchmark selection into JMH runs: JMH applies a {@code @Param} restriction and a warmup to every
 * benchmark of a run, so benchmarks that {@link QuickCells} restricts differently, or warms up longer, each get a run
 * of their own. The benchmarks come from
 * the {@code META-INF/BenchmarkList} that JMH's annotation processor writes, matched as JMH matches its include
 * (a regular expression found anywhere in {@code class.method}).
 *
 * <p>Thread-safety: immutable once built.
 */
public final class RunPlan {
  /**
   * One JMH run: the benchmarks it includes (each an exact-match regex), its {@code @Param} restrictions, and the
   * warmup and forks its benchmarks need in quick mode ({@link QuickCells#quickWarmup}, {@link QuickCells#quickForks};
   * {@link Duration#ZERO} and 0: the mode's).
   */
  public record Run(List<String> includes, Map<String, List<String>> params, Duration quickWarmup, int quickForks) {
    public Run {
      includes = List.copyOf(includes);
      params = Map.copyOf(params);
      Objects.requireNonNull(quickWarmup, "quickWarmup");
      if (quickForks < 0) {
        throw new IllegalArgumentException("quickForks must be >= 0, was " + quickForks);
      }
    }

    /** A run of {@code includes} restricted to {@code params}, with the mode's forks and warmup. */
    public Run(List<String> includes, Map<String, List<String>> params) {
      this(includes, params, Duration.ZERO, 0);
    }
  }

  private static final String BENCHMARK_LIST = "META-INF/BenchmarkList";

  private final List<Run> runs;

  private RunPlan(List<Run> runs) {
    this.runs = List.copyOf(runs);
  }

  /** The runs, in a stable order: unrestricted benchmarks first, then one run per restricted class. */
  public List<Run> runs() {
    return runs;
  }

  /**
   * The quick suite's runs over the benchmarks matching {@code include}, from this class loader's benchmark list.
   *
   * @throws IllegalArgumentException when {@code include} matches no benchmark
   */
  public static RunPlan quick(String include) {
    return quick(include, readBenchmarks());
  }

  /**
   * The smoke run's runs over the benchmarks matching {@code include}: every benchmark class, full-mode-only ones
   * included, in the cells {@link QuickCells#smokeOf} keeps, so that CI proves each one runs and reports without
   * running every cell.
   *
   * @throws IllegalArgumentException when {@code include} matches no benchmark
   */
  public static RunPlan smoke(String include) {
    return plan(include, readBenchmarks(), FullModeOnly.INCLUDED, QuickCells::smokeOf).refuseIfEmpty(include);
  }

  /** As {@link #smoke(String)} over the given {@code class.method} names. */
  static RunPlan smoke(String include, List<String> benchmarks) {
    return plan(include, benchmarks, FullModeOnly.INCLUDED, QuickCells::smokeOf).refuseIfEmpty(include);
  }

  /**
   * The longest quick-mode warmup ({@link QuickCells#quickWarmup}) among the classes of the benchmarks matching
   * {@code include}, for a run whose cells the user names: {@link Duration#ZERO} when none needs more than the mode's.
   */
  public static Duration quickWarmup(String include) {
    return quickWarmup(include, readBenchmarks());
  }

  /** As {@link #quickWarmup(String)} over the given {@code class.method} names. */
  static Duration quickWarmup(String include, List<String> benchmarks) {
    Pattern pattern = Pattern.compile(include);
    Duration longest = Duration.ZERO;
    for (String name : benchmarks) {
      if (pattern.matcher(name).find()) {
        Duration warmup = QuickCells.quickWarmup(name.substring(0, name.lastIndexOf('.')));
        longest = warmup.compareTo(longest) > 0 ? warmup : longest;
      }
    }
    return longest;
  }

  /** Whether {@code include} matches a benchmark of this class loader's benchmark list. */
  public static boolean matchesAny(String include) {
    Pattern pattern = Pattern.compile(include);
    return readBenchmarks().stream().anyMatch(name -> pattern.matcher(name).find());
  }

  /**
   * As {@link #quick(String)} over the given {@code class.method} names. Classes that {@link QuickCells} runs in full
   * mode only are left out, unless nothing else matches {@code include} (then the include names them on purpose).
   */
  static RunPlan quick(String include, List<String> benchmarks) {
    RunPlan plan = quick(include, benchmarks, FullModeOnly.LEFT_OUT);
    return plan.runs.isEmpty() ? quick(include, benchmarks, FullModeOnly.INCLUDED) : plan;
  }

  /** Whether {@link QuickCells#fullModeOnly} classes take part in a quick plan. */
  private enum FullModeOnly { LEFT_OUT, INCLUDED }

  private RunPlan refuseIfEmpty(String include) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("bench.include '" + include + "' matches no benchmark");
    }
    return this;
  }

  private static RunPlan quick(String include, List<String> benchmarks, FullModeOnly fullModeOnly) {
    RunPlan plan = plan(include, benchmarks, fullModeOnly, QuickCells::of);
    return fullModeOnly == FullModeOnly.INCLUDED ? plan.refuseIfEmpty(include) : plan;
  }

  private static RunPlan plan(String include, List<String> benchmarks, FullModeOnly fullModeOnly,
      Function<String, QuickCells.Restriction> restrictions) {
    Pattern pattern = Pattern.compile(include);
    List<String> unrestricted = new ArrayList<>();
    Map<String, List<String>> restrictedByClass = new LinkedHashMap<>();
    for (String name : new TreeSet<>(benchmarks)) {
      if (!pattern.matcher(name).find()) {
        continue;
      }
      int dot = name.lastIndexOf('.');
      String benchmarkClass = name.substring(0, dot);
      if (fullModeOnly == FullModeOnly.LEFT_OUT && QuickCells.fullModeOnly(benchmarkClass)) {
        continue;
      }
      QuickCells.Restriction restriction = restrictions.apply(benchmarkClass);
      if (restriction == null && QuickCells.quickWarmup(benchmarkClass).isZero()
          && QuickCells.quickForks(benchmarkClass) == 0) {
        unrestricted.add(exact(name));
      } else if (restriction == null || restriction.keepsMethod(name.substring(dot + 1))) {
        restrictedByClass.computeIfAbsent(benchmarkClass, c -> new ArrayList<>()).add(exact(name));
      }
    }
    List<Run> runs = new ArrayList<>();
    if (!unrestricted.isEmpty()) {
      runs.add(new Run(unrestricted, Map.of()));
    }
    // A class with a warmup or forks of its own runs apart, restricted or not, so that the others keep the mode's.
    restrictedByClass.forEach((benchmarkClass, includes) -> {
      QuickCells.Restriction restriction = restrictions.apply(benchmarkClass);
      runs.add(new Run(includes, restriction == null ? Map.of() : restriction.params(),
          QuickCells.quickWarmup(benchmarkClass), QuickCells.quickForks(benchmarkClass)));
    });
    return new RunPlan(runs);
  }

  private static String exact(String name) {
    return "^" + Pattern.quote(name) + "$";
  }

  /** The {@code class.method} names in {@value #BENCHMARK_LIST}, whose lines hold length-prefixed strings. */
  static List<String> readBenchmarks() {
    InputStream in = RunPlan.class.getClassLoader().getResourceAsStream(BENCHMARK_LIST);
    if (in == null) {
      throw new IllegalStateException(BENCHMARK_LIST + " is not on the classpath: was the module compiled?");
    }
    List<String> names = new ArrayList<>();
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (!line.isBlank()) {
          names.add(benchmarkName(line));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return names;
  }

  /** {@code class.method} of one BenchmarkList line: {@code JMH S <n> <class> S <n> <generated> S <n> <method> ...}. */
  static String benchmarkName(String line) {
    int[] pos = {"JMH ".length()};
    String userClass = token(line, pos);
    token(line, pos); // the generated class
    String method = token(line, pos);
    return userClass + "." + method;
  }

  private static String token(String line, int[] pos) {
    if (!line.startsWith("S ", pos[0])) {
      throw new IllegalArgumentException("unexpected BenchmarkList line at " + pos[0] + ": " + line);
    }
    int lengthStart = pos[0] + 2;
    int space = line.indexOf(' ', lengthStart);
    int length = Integer.parseInt(line.substring(lengthStart, space));
    String value = line.substring(space + 1, space + 1 + length);
    pos[0] = space + 1 + length + 1;
    return value;
  }
}
