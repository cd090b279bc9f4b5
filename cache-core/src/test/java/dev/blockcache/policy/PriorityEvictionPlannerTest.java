package dev.blockcache.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.blockcache.policy.PriorityEvictionPlanner.Mode;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PriorityEvictionPlannerTest {
  private static long sum(long[] plan) {
    return Arrays.stream(plan).sum();
  }

  @Test
  void nothingToFreePlansNothing() {
    assertArrayEquals(new long[3],
        PriorityEvictionPlanner.plan(0, new long[] {10, 10, 10}, new long[] {5, 5, 5}, Mode.NORMAL));
  }

  @Test
  void onlyPrioritiesOverTheirTargetGiveBytes() {
    // single 60 over a target of 25; multi and memory under target.
    long[] plan = PriorityEvictionPlanner.plan(30, new long[] {60, 40, 0}, new long[] {25, 50, 25}, Mode.NORMAL);
    assertArrayEquals(new long[] {30, 0, 0}, plan);
  }

  @Test
  void smallOverflowGivesItsShareAndTheLargestGivesTheRest() {
    // overflows: single 5, multi 40, memory -5. Visit single (5 -> min(5, 30/3=10) = 5), memory (none),
    // multi last: min(40, 25/1) = 25.
    long[] plan = PriorityEvictionPlanner.plan(30, new long[] {30, 90, 20}, new long[] {25, 50, 25}, Mode.NORMAL);
    assertArrayEquals(new long[] {5, 25, 0}, plan);
    assertEquals(30, sum(plan));
  }

  @Test
  void evenSplitWhenAllOverflowEqually() {
    long[] plan = PriorityEvictionPlanner.plan(30, new long[] {35, 60, 35}, new long[] {25, 50, 25}, Mode.NORMAL);
    assertArrayEquals(new long[] {10, 10, 10}, plan);
  }

  @Test
  void forceModeKeepsMemoryWhileSingleAndMultiCanPay() {
    long[] plan = PriorityEvictionPlanner.plan(30, new long[] {30, 60, 100}, new long[] {25, 50, 25}, Mode.PROTECT_IN_MEMORY);
    assertEquals(0, plan[2]);
    assertEquals(30, sum(plan));
    // 60 left of single+multi: keep single at 20 and multi at 40.
    assertArrayEquals(new long[] {10, 20, 0}, plan);
  }

  @Test
  void forceModeEmptiesSingleAndMultiBeforeTouchingMemory() {
    long[] plan = PriorityEvictionPlanner.plan(50, new long[] {10, 20, 100}, new long[] {25, 50, 25}, Mode.PROTECT_IN_MEMORY);
    assertArrayEquals(new long[] {10, 20, 20}, plan);
  }

  @Test
  void forceModeTakesFromMultiWhenSingleIsAlreadySmall() {
    long[] plan = PriorityEvictionPlanner.plan(30, new long[] {5, 100, 0}, new long[] {25, 50, 25}, Mode.PROTECT_IN_MEMORY);
    assertArrayEquals(new long[] {0, 30, 0}, plan);
  }

  @Test
  void forceModeTakesFromSingleWhenMultiIsAlreadySmall() {
    long[] plan = PriorityEvictionPlanner.plan(30, new long[] {100, 5, 0}, new long[] {25, 50, 25}, Mode.PROTECT_IN_MEMORY);
    assertArrayEquals(new long[] {30, 0, 0}, plan);
  }
}
