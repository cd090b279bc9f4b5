package dev.blockcache.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PackageCyclesTest {
  @Test
  void findsATwoPackageCycleAndLeavesALayeredChainAlone() {
    Map<String, Set<String>> graph = Map.of(
        "a", Set.of("b"),
        "b", Set.of("a", "c"),
        "c", Set.of("d"));
    assertEquals(List.of(Set.of("a", "b")), PackageCycles.cyclesOf(graph));
  }

  @Test
  void findsALongCycleThroughAShortcut() {
    Map<String, Set<String>> graph = Map.of(
        "a", Set.of("b", "d"),
        "b", Set.of("c"),
        "c", Set.of("a"),
        "d", Set.of());
    assertEquals(List.of(Set.of("a", "b", "c")), PackageCycles.cyclesOf(graph));
  }

  @Test
  void cacheCoreHasNoPackageCycle() {
    PackageCycles.assertNoCycle();
  }
}
