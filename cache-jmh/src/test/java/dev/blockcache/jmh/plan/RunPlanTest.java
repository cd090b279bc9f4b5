package dev.blockcache.jmh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class RunPlanTest {
  private static final List<String> BENCHMARKS = List.of(
      "dev.blockcache.jmh.experiments.BlockSizeExperiment.get1Thread",
      "dev.blockcache.jmh.experiments.BlockSizeExperiment.get2Threads",
      "dev.blockcache.jmh.l2.L2GetBenchmark.get1Thread",
      "dev.blockcache.jmh.l2.L2GetBenchmark.get2Threads",
      "dev.blockcache.jmh.experiments.ThreadScalingExperiment.threads05",
      "dev.blockcache.jmh.experiments.ThreadScalingExperiment.threads10",
      "dev.blockcache.jmh.experiments.ThreadScalingExperiment.threads20",
      "dev.blockcache.jmh.experiments.ThreadScalingExperiment.threads75");

  @Test
  void unrestrictedBenchmarksShareOneRunAndEachRestrictedClassGetsItsOwn() {
    List<RunPlan.Run> runs = RunPlan.quick(".*", BENCHMARKS).runs();

    assertEquals(3, runs.size());
    assertEquals(Map.of(), runs.get(0).params());
    assertTrue(selects(runs.get(0), "dev.blockcache.jmh.experiments.BlockSizeExperiment.get2Threads"));
    assertEquals(2, runs.get(0).includes().size());
    RunPlan.Run threads = runs.get(1);
    assertEquals(3, threads.includes().size(), "05, 20 and 75 kept");
    assertTrue(!selects(threads, "dev.blockcache.jmh.experiments.ThreadScalingExperiment.threads10"));
    assertTrue(selects(threads, "dev.blockcache.jmh.experiments.ThreadScalingExperiment.threads05"));
    RunPlan.Run l2 = runs.get(2);
    assertEquals(List.of("OURS_ZERO_COPY", "HBASE_BUCKET"), l2.params().get("competitor"));
    assertTrue(selects(l2, "dev.blockcache.jmh.l2.L2GetBenchmark.get1Thread"));
  }

  @Test
  @SuppressWarnings("ReferenceEquality") // "every run but that one": identity, not equal values
  void theRegionPairRunsApartWithTheWarmupAndForksItNeedsAndTheOthersKeepTheModes() {
    List<String> benchmarks = new ArrayList<>(BENCHMARKS);
    benchmarks.add("dev.blockcache.hbase.bench.RegionGetBenchmark.getT1");
    benchmarks.add("dev.blockcache.hbase.bench.RegionGetBenchmark.scanT1");
    benchmarks.add("dev.blockcache.hbase.bench.RegionPairBenchmark.getT1");
    benchmarks.add("dev.blockcache.hbase.bench.RegionPairBenchmark.getT2");
    List<RunPlan.Run> runs = RunPlan.quick(".*", benchmarks).runs();

    assertFalse(runs.stream().anyMatch(r -> selects(r, "dev.blockcache.hbase.bench.RegionGetBenchmark.getT1")),
        "one fork per L2 runs in full mode; the pair gives the ratio");
    RunPlan.Run pair = run(runs, "dev.blockcache.hbase.bench.RegionPairBenchmark.getT1");
    assertEquals(Duration.ofSeconds(10), pair.quickWarmup());
    assertEquals(2, pair.quickForks());
    assertTrue(selects(pair, "dev.blockcache.hbase.bench.RegionPairBenchmark.getT2"), "both thread counts");
    assertEquals(List.of("OURS_OFFHEAP"), pair.params().get("competitor"), "the floor runs in full mode");
    assertEquals(List.of("IN_CACHE"), pair.params().get("dataset"), "so does the dataset at 4x the L2");
    for (RunPlan.Run run : runs) {
      if (run != pair) {
        assertEquals(Duration.ZERO, run.quickWarmup(), run.includes().toString());
        assertEquals(0, run.quickForks(), run.includes().toString());
      }
    }
    assertEquals(Duration.ofSeconds(10), RunPlan.quickWarmup("RegionGetBenchmark", benchmarks));
    assertEquals(Duration.ZERO, RunPlan.quickWarmup("L2GetBenchmark", benchmarks));
  }

  @Test
  void theOneForkPerL2RegionBenchmarkAskedForAloneRunsItsGetsWithTheLongerWarmup() {
    List<String> names = List.of("dev.blockcache.hbase.bench.RegionGetBenchmark.getT1",
        "dev.blockcache.hbase.bench.RegionGetBenchmark.getT2",
        "dev.blockcache.hbase.bench.RegionGetBenchmark.scanT1");

    RunPlan.Run region = run(RunPlan.quick("RegionGetBenchmark", names).runs(), names.get(0));

    assertEquals(Duration.ofSeconds(10), region.quickWarmup());
    assertTrue(selects(region, names.get(1)));
    assertFalse(selects(region, names.get(2)), "scans run in full mode");
    assertEquals(List.of("HBASE_BUCKET", "OURS_OFFHEAP"), region.params().get("competitor"));
  }

  @Test
  void includesMatchOneBenchmarkExactlyNotItsPrefixes() {
    RunPlan.Run run = RunPlan.quick("BlockSizeExperiment.get1", BENCHMARKS).runs().get(0);

    assertEquals(1, run.includes().size());
    assertTrue(selects(run, "dev.blockcache.jmh.experiments.BlockSizeExperiment.get1Thread"));
    assertTrue(!selects(run, "dev.blockcache.jmh.experiments.BlockSizeExperiment.get1ThreadMore"));
  }

  @Test
  void anIncludeMatchingNothingIsRefusedByName() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RunPlan.quick("NoSuchBenchmark", BENCHMARKS));
    assertTrue(e.getMessage().contains("NoSuchBenchmark"), e.getMessage());
  }

  @Test
  void readsTheClassAndMethodOfABenchmarkListLine() {
    String line = "JMH S 23 a.b.BlockSizeExperiment S 45 a.b.jmh_generated.BlockSizeExperiment_jmhTest"
        + " S 13 randomRowRead S 10 Throughput I 1 1";

    assertEquals("a.b.BlockSizeExperiment.randomRowRead", RunPlan.benchmarkName(line));
  }

  @Test
  void theCompiledBenchmarkListHoldsTheQuickSuitesClasses() {
    List<String> names = RunPlan.readBenchmarks();

    assertTrue(names.contains("dev.blockcache.jmh.l2.L2GetBenchmark.get1Thread"), names.toString());
    assertTrue(names.contains("dev.blockcache.jmh.experiments.ThreadScalingExperiment.threads20"), names.toString());
  }

  @Test
  void fullModeOnlyClassesRunInQuickModeOnlyWhenTheIncludeNamesNothingElse() {
    List<String> names = List.of("a.b.L2GetBenchmark.get1Thread",
        "dev.blockcache.hbase.bench.RegionThreadScalingExperiment.threads05");

    RunPlan all = RunPlan.quick(".*", names);
    assertFalse(all.runs().stream().anyMatch(r -> selects(r, names.get(1))), all.runs().toString());
    assertTrue(all.runs().stream().anyMatch(r -> selects(r, names.get(0))));

    RunPlan named = RunPlan.quick("RegionThreadScaling", names);
    assertTrue(named.runs().stream().anyMatch(r -> selects(r, names.get(1))), named.runs().toString());
  }

  @Test
  void theSmokePlanRunsEveryClassInItsQuickCellsWithTheRegionScansAndOneFullModeOnlyCell() {
    List<String> names = List.of("dev.blockcache.jmh.l2.L2GetBenchmark.get1Thread",
        "dev.blockcache.hbase.bench.RegionGetBenchmark.getT1",
        "dev.blockcache.hbase.bench.RegionGetBenchmark.scanT1",
        "dev.blockcache.hbase.bench.RegionThreadScalingExperiment.threads05",
        "dev.blockcache.hbase.bench.RegionThreadScalingExperiment.threads75");

    List<RunPlan.Run> runs = RunPlan.smoke(".*", names).runs();

    RunPlan.Run l2 = run(runs, names.get(0));
    assertEquals(List.of("OURS_ZERO_COPY", "OURS_COPY", "HBASE_BUCKET"), l2.params().get("competitor"));
    assertEquals(List.of("4096"), l2.params().get("blockSize"), "one block size is enough to prove it runs");
    RunPlan.Run region = run(runs, names.get(1));
    assertTrue(selects(region, names.get(2)), "the scans are smoke-tested although quick mode leaves them out");
    assertEquals(List.of("HBASE_BUCKET", "OURS_OFFHEAP"), region.params().get("competitor"));
    RunPlan.Run scaling = run(runs, names.get(3));
    assertFalse(selects(scaling, names.get(4)), "one thread count is enough to prove the experiment runs");
    assertEquals(Map.of(), scaling.params());
  }

  private static RunPlan.Run run(List<RunPlan.Run> runs, String benchmark) {
    return runs.stream().filter(r -> selects(r, benchmark)).findFirst()
        .orElseThrow(() -> new AssertionError(benchmark + " not in " + runs));
  }

  @Test
  void matchesAnyTellsWhetherAnIncludeSelectsACompiledBenchmark() {
    assertTrue(RunPlan.matchesAny("L2GetBenchmark"));
    assertFalse(RunPlan.matchesAny("RegionGetBenchmark"), "cache-hbase-bench's benchmarks are not compiled here");
  }

  private static boolean selects(RunPlan.Run run, String benchmark) {
    return run.includes().stream().anyMatch(regex -> Pattern.compile(regex).matcher(benchmark).find());
  }
}
