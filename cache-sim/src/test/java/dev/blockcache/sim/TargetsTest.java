package dev.blockcache.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.sim.policy.PolicyKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report's target checks, on rows whose hit ratios are given (in points of 1,000 accesses). */
class TargetsTest {
  private static HitRatio cell(String trace, PolicyKind policy, double percent) {
    return new HitRatio(trace, 1000, 100, 0.2, 20, policy, Math.round(percent * 10), -1);
  }

  private static List<HitRatio> row(String trace, double lru, double caffeine, double hbaseLru, double l1Lru,
      double l1TinyLfu, double l2) {
    return List.of(cell(trace, PolicyKind.LRU, lru), cell(trace, PolicyKind.CAFFEINE, caffeine),
        cell(trace, PolicyKind.HBASE_LRU, hbaseLru), cell(trace, PolicyKind.L1_LRU, l1Lru),
        cell(trace, PolicyKind.L1_TINYLFU, l1TinyLfu), cell(trace, PolicyKind.L2, l2));
  }

  @Test
  void theL2IsHeldToTheBetterOfLruAndCaffeine() {
    assertEquals("ok", Targets.cell(row("t", 50, 60, 50, 50, 60, 59.5)));
    assertEquals("L2 −0.10", Targets.cell(row("t", 60, 50, 60, 60, 50, 59.4)), "LRU is the better one here");
  }

  @Test
  void theL1LruIsHeldToTheLowerOfLruAndHBasesLru() {
    assertEquals("ok", Targets.cell(row("t", 50, 60, 40, 39.5, 60, 60)), "HBase's shares cost it 10 points");
    assertEquals("L1 LRU −0.40, L1 TinyLFU −1.00", Targets.cell(row("t", 50, 60, 50, 49.1, 58.5, 60)));
  }

  @Test
  void aTargetWhoseCachesWereNotReplayedIsNotChecked() {
    List<HitRatio> onlyReferences = List.of(cell("t", PolicyKind.LRU, 50), cell("t", PolicyKind.CAFFEINE, 60));
    assertEquals("", Targets.cell(onlyReferences));
    assertEquals("", Targets.summary(List.of(onlyReferences)));
    List<HitRatio> l2Only = List.of(cell("t", PolicyKind.LRU, 50), cell("t", PolicyKind.CAFFEINE, 60),
        cell("t", PolicyKind.L2, 58));
    assertEquals("L2 −1.50", Targets.cell(l2Only));
  }

  @Test
  void theSummaryCountsRowsAndNamesThoseMissed() {
    String summary = Targets.summary(List.of(row("a", 50, 60, 50, 50, 60, 60), row("b", 50, 60, 50, 50, 60, 58)));
    assertTrue(summary.contains("- L2 ≥ max(LRU, Caffeine) − 0.5: 1 of 2 rows; missed: b 20%"), summary);
    assertTrue(summary.contains("- L1 LRU ≥ min(LRU, HBase LRU) − 0.5: 2 of 2 rows\n"), summary);
  }
}
