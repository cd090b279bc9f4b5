package dev.blockcache.jmh.plan;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cells the quick suite leaves out, per benchmark class, so that it keeps the README's ten-minute limit: the
 * floors and reference points that explain a ratio but are not a competitor (the L1 and L2 benchmarks' heap-map
 * rows, the L1 insert benchmark's ring floor, the L1 benchmark's prebuilt-key rows and scoped-read variants, the L2
 * get benchmark's copy-to-heap variant, the L1 get/put mix's TinyLFU rows and 4 KiB cells); the file engine's
 * two-thread gets; thread counts of the thread-scaling experiment between the ones that give its shape; in
 * cache-hbase-bench, the paired region benchmark's floor and dataset at 4x the L2; and, whole, the classes named in
 * {@link #fullModeOnly} (the region benchmark of one fork per L2, whose ratio the paired one gives, the region
 * thread-scaling experiment, and the L2 insert benchmark under eviction, whose every cell first fills a 128 MiB
 * cache). They run in full mode and on request. Every competitor a target names, and every cell an experiment's
 * report needs, stays in.
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

  /** The one block size the smoke run gives the micro benchmarks that take several. */
  private static final List<String> SMOKE_BLOCK_SIZE = List.of("4096");

  private static final Map<String, Restriction> BY_CLASS = Map.of(
      "dev.blockcache.jmh.l1.L1GetBenchmark",
      new Restriction(Map.of(
          "competitor", List.of("OURS_LRU", "OURS_TINYLFU", "HBASE_LRU", "HBASE_TINYLFU", "CAFFEINE"),
          "keySource", List.of("PER_LOOKUP")), Set.of()),
      "dev.blockcache.jmh.l2.L2GetBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_ZERO_COPY", "HBASE_BUCKET"),
          "keySource", List.of("PER_LOOKUP")), Set.of()),
      "dev.blockcache.jmh.l2.L2InsertBurstBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_ZERO_COPY", "OURS_HAND_OVER", "HBASE_BUCKET")), Set.of()),
      // Full-mode-only (each cell fills a 128 MiB cache first); asked for alone, the file engine's cells of the target.
      "dev.blockcache.jmh.l2.L2InsertUnderEvictionBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_ZERO_COPY", "OURS_HAND_OVER", "HBASE_BUCKET"),
          "engine", List.of("file")), Set.of()),
      "dev.blockcache.jmh.l1.L1InsertBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_LRU", "OURS_LRU_HAND_OVER", "OURS_TINYLFU",
          "OURS_TINYLFU_HAND_OVER", "HBASE_LRU", "HBASE_TINYLFU")), Set.of()),
      // The get/put mix's target pair at the size where the hit ratios differ most; the rest in full mode.
      "dev.blockcache.jmh.l1.L1MixedBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_LRU", "HBASE_LRU"), "blockSize", List.of("65536")),
          Set.of()),
      "dev.blockcache.jmh.file.FileEngineGetBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS", "RAW_FILECHANNEL", "HBASE_BUCKET")), Set.of("get1Thread")),
      "dev.blockcache.jmh.experiments.ThreadScalingExperiment",
      new Restriction(Map.of(), Set.of("threads05", "threads20", "threads75")),
      // cache-hbase-bench: gets at 1 and 2 threads from an L2 that holds the dataset, ours offheap against HBase's
      // BucketCache in one fork (its floor and the dataset at 4x the L2 run in full mode). RegionGetBenchmark, one
      // fork per L2, is full-mode-only; asked for alone, its quick cells are these.
      "dev.blockcache.hbase.bench.RegionGetBenchmark",
      new Restriction(Map.of("competitor", List.of("HBASE_BUCKET", "OURS_OFFHEAP"), "dataset", List.of("IN_CACHE")),
          Set.of("getT1", "getT2")),
      "dev.blockcache.hbase.bench.RegionPairBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_OFFHEAP"), "dataset", List.of("IN_CACHE")), Set.of()));

  /**
   * Benchmark classes the quick suite leaves out whole (long experiments, and benchmarks whose targets another class
   * measures in the quick suite); a quick run whose include matches nothing else runs them (see
   * {@link RunPlan#quick(String)}).
   */
  private static final Set<String> FULL_MODE_ONLY = Set.of(
      "dev.blockcache.jmh.l2.L2InsertUnderEvictionBenchmark",
      "dev.blockcache.hbase.bench.RegionGetBenchmark",
      "dev.blockcache.hbase.bench.RegionThreadScalingExperiment");

  /**
   * Where the smoke run ({@code bench.smoke}, CI's proof that every benchmark runs and reports) differs from the
   * quick cells: the L2 get benchmark's copy-to-heap variant and the region benchmark's scans and two-thread gets run
   * too, and the full-mode-only experiment runs its smallest thread count; the micro benchmarks run one block size
   * (4 KiB) and the L1 get one key distribution (uniform), since the other value takes the same code path and only
   * its figure differs.
   */
  private static final Map<String, Restriction> SMOKE_BY_CLASS = Map.of(
      "dev.blockcache.jmh.l1.L1GetBenchmark",
      new Restriction(with(BY_CLASS.get("dev.blockcache.jmh.l1.L1GetBenchmark").params(),
          "distribution", List.of("UNIFORM")), Set.of()),
      "dev.blockcache.jmh.l1.L1InsertBenchmark",
      new Restriction(with(BY_CLASS.get("dev.blockcache.jmh.l1.L1InsertBenchmark").params(),
          "blockSize", SMOKE_BLOCK_SIZE), Set.of()),
      "dev.blockcache.jmh.l1.L1MixedBenchmark",
      new Restriction(with(BY_CLASS.get("dev.blockcache.jmh.l1.L1MixedBenchmark").params(),
          "blockSize", SMOKE_BLOCK_SIZE), Set.of()),
      "dev.blockcache.jmh.l2.L2GetBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_ZERO_COPY", "OURS_COPY", "HBASE_BUCKET"),
          "keySource", List.of("PER_LOOKUP"), "blockSize", SMOKE_BLOCK_SIZE), Set.of()),
      "dev.blockcache.jmh.l2.L2InsertBurstBenchmark",
      new Restriction(with(BY_CLASS.get("dev.blockcache.jmh.l2.L2InsertBurstBenchmark").params(),
          "blockSize", SMOKE_BLOCK_SIZE), Set.of()),
      "dev.blockcache.jmh.l2.L2InsertUnderEvictionBenchmark",
      new Restriction(Map.of("competitor", List.of("OURS_HAND_OVER", "HBASE_BUCKET"), "engine", List.of("file"),
          "blockSize", SMOKE_BLOCK_SIZE), Set.of()),
      "dev.blockcache.jmh.file.FileEngineGetBenchmark",
      new Restriction(with(BY_CLASS.get("dev.blockcache.jmh.file.FileEngineGetBenchmark").params(),
          "blockSize", SMOKE_BLOCK_SIZE), BY_CLASS.get("dev.blockcache.jmh.file.FileEngineGetBenchmark").methods()),
      "dev.blockcache.hbase.bench.RegionGetBenchmark",
      new Restriction(BY_CLASS.get("dev.blockcache.hbase.bench.RegionGetBenchmark").params(), Set.of()),
      "dev.blockcache.hbase.bench.RegionThreadScalingExperiment",
      new Restriction(Map.of(), Set.of("threads05")));

  /**
   * Classes whose benchmarks need a longer warmup than the quick mode's 2 × 300 ms to reach steady state, and how
   * long: an {@code HRegion.get} runs through enough of HBase's code that the JIT takes seconds to compile it, and
   * gets per second keep rising until it has; a measurement that starts earlier reports the compiler, not the cache.
   */
  private static final Map<String, Duration> QUICK_WARMUP = Map.of(
      "dev.blockcache.hbase.bench.RegionGetBenchmark", Duration.ofSeconds(10),
      "dev.blockcache.hbase.bench.RegionPairBenchmark", Duration.ofSeconds(10),
      "dev.blockcache.hbase.bench.RegionThreadScalingExperiment", Duration.ofSeconds(10));

  /**
   * Classes whose quick cells run in more forks than the mode's one, and how many: {@code RegionPairBenchmark}'s
   * ratio is steady within a fork but moves from fork to fork with what the JIT makes of HBase's read path, so the
   * quick suite takes the mean of two (docs/decisions.md#benchmarks).
   */
  private static final Map<String, Integer> QUICK_FORKS = Map.of(
      "dev.blockcache.hbase.bench.RegionPairBenchmark", 2);

  private QuickCells() {
  }

  /** {@code params} with {@code param} restricted to {@code values}. */
  private static Map<String, List<String>> with(Map<String, List<String>> params, String param, List<String> values) {
    Map<String, List<String>> restricted = new HashMap<>(params);
    restricted.put(param, values);
    return restricted;
  }

  /** The forks quick mode gives {@code benchmarkClass} (fully qualified), or 0 for the mode's own. */
  public static int quickForks(String benchmarkClass) {
    return QUICK_FORKS.getOrDefault(benchmarkClass, 0);
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
