package dev.blockcache.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.sim.policy.L2Writes;
import dev.blockcache.sim.policy.PolicyKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulator's main path: traces in, a Markdown table and charts out. */
class HitRatioSimulatorTest {
  @TempDir Path dir;

  /** A LIRS trace of 4,000 accesses over 200 blocks, half of them to a hot 20, in the traces directory. */
  private Path bundledTrace() throws IOException {
    Path lirs = Files.createDirectories(dir.resolve("traces/lirs"));
    SplittableRandom random = new SplittableRandom(5);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 4_000; i++) {
      text.append(random.nextBoolean() ? random.nextInt(20) : random.nextInt(200)).append('\n');
    }
    Files.writeString(lirs.resolve("tiny.trace"), text);
    return dir.resolve("traces");
  }

  @Test
  void writesTheTableAndOneChartPerSize() throws IOException {
    Path traces = bundledTrace();
    Path keys = Files.writeString(dir.resolve("keys.txt"), "a\nb\na\nc\na\nb\n");
    Path results = dir.resolve("results");
    SimOptions options = SimOptions.parse("--traces-dir=" + traces, "--trace=lirs/tiny,text:" + keys,
        "--sizes=0.1,0.5", "--results=" + results, "--block-size=512");
    Path table = HitRatioSimulator.run(options, "HitRatioSimulator (test)");

    String md = Files.readString(table);
    assertTrue(md.contains("| trace | accesses | distinct | size | blocks | LRU | OPT | Caffeine | Caffeine weighted "
        + "| HBase LRU | L1 LRU | L1 TinyLFU | L2 | L2 hbase | L2 writes | L2 hbase writes | targets |"), md);
    assertTrue(md.contains("- L2 ≥ max(LRU, Caffeine) − 0.5: "), md);
    assertTrue(md.contains("| lirs/tiny | 4,000 | 200 | 10% | 20 |"), md);
    assertTrue(md.contains("| lirs/tiny | 4,000 | 200 | 50% | 100 |"), md);
    // 3 distinct keys: 10% is one block, where LRU never hits (no key repeats at once); 50% is two blocks.
    assertTrue(md.contains("| keys.txt | 6 | 3 | 10% | 1 | 0.00 |"), md);
    assertTrue(md.contains("--block-size=512 --l2-engine=heap --l2-writes=inline --runs=10"), md);
    assertEquals(2 + 4, md.lines().filter(l -> l.startsWith("|")).count(), md);
    assertTrue(Files.size(results.resolve("hit-ratio-10pct.png")) > 0);
    assertTrue(Files.size(results.resolve("hit-ratio-50pct.png")) > 0);
  }

  /** OPT (with pass-through) bounds every policy, admission-based ones included, at equal sizes. */
  @Test
  void optIsTheBoundInEveryRow() throws IOException {
    SimOptions options = SimOptions.parse("--traces-dir=" + bundledTrace(), "--trace=lirs/tiny",
        "--sizes=0.1,0.2,0.6", "--results=" + dir.resolve("r")); // whole L2 buckets: 20, 40, 120 blocks
    String md = Files.readString(HitRatioSimulator.run(options, "test"));
    List<String> rows = md.lines().filter(l -> l.startsWith("| lirs/tiny")).toList();
    assertEquals(3, rows.size());
    for (String row : rows) {
      String[] cells = row.split("\\|", -1);
      double opt = Double.parseDouble(cells[7].strip());
      for (int c = 6; c < 6 + PolicyKind.values().length; c++) { // the hit-ratio columns, not the writes
        assertTrue(Double.parseDouble(cells[c].strip()) <= opt, row);
      }
    }
  }

  @Test
  void flagsAreParsedAndErrorsNameWhatIsAccepted() {
    SimOptions options = SimOptions.parse("--policies=opt,l2", "--l2-writes=drained", "--l2-engine=offheap",
        "--max-events=1000");
    assertEquals(List.of(PolicyKind.OPT, PolicyKind.L2), options.policies());
    assertEquals(L2Writes.DRAINED, options.setup().l2Writes());
    assertEquals(1000, options.maxEvents());
    assertEquals(SimOptions.DEFAULT_RUNS, options.runs());
    assertEquals(2, SimOptions.parse("--runs=2").runs());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> SimOptions.parse("--runs=0"))
        .getMessage().contains("--runs=0: expected a positive int"));
    assertEquals(SimOptions.DEFAULT_TRACES, options.traces());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> SimOptions.parse("--policies=arc"))
        .getMessage().contains("accepted: lru, opt, caffeine, caffeine-weighted, hbase-lru, l1-lru, l1-tinylfu, l2"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> SimOptions.parse("--sizes=0.1,2"))
        .getMessage().contains("'2' is not a fraction in (0, 1]"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> SimOptions.parse("--l2-engine=file"))
        .getMessage().contains("accepted a memory engine (heap, offheap)"));
    assertThrows(IllegalArgumentException.class, () -> SimOptions.parse("--size=0.1"));
    assertThrows(IllegalArgumentException.class, () -> SimOptions.parse("--block-size=0"));
  }

  @Test
  void percentLabels() {
    assertEquals("5%", HitRatioReport.percent(0.05));
    assertEquals("0.5%", HitRatioReport.percent(0.005));
    assertEquals("100%", HitRatioReport.percent(1));
  }
}
