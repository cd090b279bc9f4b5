package dev.blockcache.jmh.plan;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cells the quick suite leaves out, per benchmark class, so that it stays within ten minutes on two cores: the
 * floors and reference points that explain a ratio but are not a competitor (the L1 and L2 benchmarks' heap-map
 * rows, the L1 benchmark's prebuilt-key rows and scoped-read variants, the L2 get benchmark's copy-to-heap
 * variant); the file engine's two-thread gets; thread
 * counts of the thread-scaling experiment between the ones that give its shape; the region benchmark's
 * (cache-hbase-bench) {@code file:} L2, scans, two-thread gets and dataset at 4x the L2, which keep its share of the
 * suite's time to its offheap gets at one thread (the paired region benchmark gives the ratio at both thread counts);
 * and, whole, the experiments named in {@link #fullModeOnly}. They run in full mode and on request.
 * Every competitor a target names, and every cell an experiment's report needs, stays in.
 *
 * <p>Thread-safety: immutable.
 */
public final class QuickCells {
  /** One benchmark class's restriction: {@code @Param} values kept, and benchmark methods kept (empty: all). */
  record Restriction(Map<String, List<String>> params, Set<String> methods) {
    Restriction {
      params = Map.copyOf(params);
      methods = Set.copyOf(methods);
    }

    boolean keepsMethod(String method) {
      return methods.isEmpty() || methods.contains(method);
    }
  }

  private static final Map<String, Restriction> BY_CLASS = Map.of(
      "dev.blockcache.jmh.l1.L1GetBenchmark",
      new Restriction(Map.of(
          "competitor", List.of("OURS_LRU", "OURS_TINYLFU", "HBASE_LRU", "HBASE_TINYLFU", "CAFFEINE"),
          "keySource", List.of("PER_LOOKUP")), Set.of()),
      "dev.blockcache.jmh.l2.L2GetBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_ZERO_COPY", "HBASE_BUCKET")), Set.of()),
      "dev.blockcache.jmh.l2.L2InsertBurstBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_ZERO_COPY", "OURS_HAND_OVER", "HBASE_BUCKET")), Set.of()),
      "dev.blockcache.jmh.file.FileEngineGetBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS", "RAW_FILECHANNEL", "HBASE_BUCKET")), Set.of("get1Thread")),
      "dev.blockcache.jmh.experiments.ThreadScalingExperiment",
      new Restriction(Map.of(), Set.of("threads05", "threads20", "threads75")),
      // cache-hbase-bench: gets at 1 thread from an L2 that holds the dataset, HBase's BucketCache against ours
      // offheap, one fork each, for each L2's own figures (ops/s, p99, allocation, heap); their ratio at 1 and 2
      // threads comes from RegionPairBenchmark, ours offheap against HBase's in one fork (its floor, the dataset at
      // 4x the L2 and the other L2s run in full mode).
      "dev.blockcache.hbase.bench.RegionGetBenchmark",
      new Restriction(Map.of("competitor", List.of("HBASE_BUCKET", "OURS_OFFHEAP"), "dataset", List.of("IN_CACHE")),
          Set.of("getT1")),
      "dev.blockcache.hbase.bench.RegionPairBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_OFFHEAP")), Set.of()));

  /**
   * Benchmark classes the quick suite leaves out whole (long experiments that run in full mode); a quick run whose
   * include matches nothing else runs them (see {@link RunPlan#quick(String)}).
   */
  private static final Set<String> FULL_MODE_ONLY = Set.of(
      "dev.blockcache.hbase.bench.RegionThreadScalingExperiment");

  /**
   * Where the smoke run ({@code bench.smoke}, CI's proof that every benchmark runs and reports) differs from the
   * quick cells: the L2 get benchmark's copy-to-heap variant and the region benchmark's scans and two-thread gets run
   * too, and the
   * full-mode-only experiment runs its smallest thread count.
   */
  private static final Map<String, Restriction> SMOKE_BY_CLASS = Map.of(
      "dev.blockcache.jmh.l2.L2GetBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_ZERO_COPY", "OURS_COPY", "HBASE_BUCKET")), Set.of()),
      "dev.blockcache.hbase.bench.RegionGetBenchmark",
      new Restriction(BY_CLASS.get("dev.blockcache.hbase.bench.RegionGetBenchmark").params(), Set.of()),
      "dev.blockcache.hbase.bench.RegionThreadScalingExperiment",
      new Restriction(Map.of(), Set.of("threads05")));

  /**
   * Classes whose benchmarks need a longer warmup than the quick mode's 2 × 300 ms to reach steady state, and how
   * long: an {@code HRegion.get} runs through enough of HBase's code that the JIT takes seconds to compile it, and
   * gets per second rise about fivefold over the first 6–8 s of a fork before they level off.
   */
  private static final Map<String, Duration> QUICK_WARMUP = Map.of(
      "dev.blockcache.hbase.bench.RegionGetBenchmark", Duration.ofSeconds(10),
      "dev.blockcache.hbase.bench.RegionPairBenchmark", Duration.ofSeconds(10),
      "dev.blockcache.hbase.bench.RegionThreadScalingExperiment", Duration.ofSeconds(10));

  private QuickCells() {
  }

  /**
   * The warmup quick mode gives {@code benchmarkClass} (fully qualified), in 1 s iterations, or {@link Duration#ZERO}
   * for the mode's own.
   */
  public static Duration quickWarmup(String benchmarkClass) {
    return QUICK_WARMUP.getOrDefault(benchmarkClass, Duration.ZERO);
  }

  /** The smoke run's restriction of {@code benchmarkClass}, or {@code null} when it runs all of it. */
  static Restriction smokeOf(String benchmarkClass) {
    Restriction smoke = SMOKE_BY_CLASS.get(benchmarkClass);
    return smoke != null ? smoke : BY_CLASS.get(benchmarkClass);
  }

  /** Whether quick mode leaves {@code benchmarkClass} (fully qualified) out unless it is all the include matches. */
  static boolean fullModeOnly(String benchmarkClass) {
    return FULL_MODE_ONLY.contains(benchmarkClass);
  }

  /** The restriction of {@code benchmarkClass} (fully qualified), or {@code null} when quick mode runs all of it. */
  static Restriction of(String benchmarkClass) {
    return BY_CLASS.get(benchmarkClass);
  }
}
