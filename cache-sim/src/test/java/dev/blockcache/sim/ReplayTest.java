package dev.blockcache.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.sim.policy.CacheSetup;
import dev.blockcache.sim.policy.L2Writes;
import dev.blockcache.sim.policy.PolicyKind;
import dev.blockcache.sim.trace.Trace;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ReplayTest {
  private static final CacheSetup SETUP = new CacheSetup(1024, "heap", L2Writes.INLINE);

  /** 20,000 accesses, half of them to 50 hot keys of 1,000: an L2 of 10% has decisions to make. */
  private static Trace skewed() {
    SplittableRandom random = new SplittableRandom(7);
    long[] keys = new long[20_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = random.nextBoolean() ? random.nextInt(50) : random.nextInt(1_000);
    }
    return new Trace("skewed", keys);
  }

  @Test
  void relabellingKeepsDistinctKeysDistinctAndRunZeroKeepsThem() {
    Set<Long> labels = new HashSet<>();
    for (long key = 0; key < 100_000; key++) {
      assertEquals(key, Replay.relabel(key, 0));
      labels.add(Replay.relabel(key, 1));
      labels.add(Replay.relabel(key << 32, 2)); // file numbers as well as block numbers
    }
    assertEquals(200_000, labels.size());
  }

  @Test
  void oneRunIsTheTraceAsItIsAndTheMeanCoversHitsAndWritesAlike() {
    Trace trace = skewed();
    HitRatio once = Replay.run(trace, 0.1, PolicyKind.L2, SETUP, 1);
    assertEquals(once, Replay.run(trace, 0.1, PolicyKind.L2, SETUP, 1), "a replay is deterministic");
    HitRatio mean = Replay.run(trace, 0.1, PolicyKind.L2, SETUP, 3);
    assertTrue(Math.abs(mean.hits() - once.hits()) < trace.length() / 20, once + " vs " + mean);
    // The L2 writes every miss it admits into its window: hits and writes are means of the same runs.
    assertEquals(trace.length() - once.hits(), once.writes());
    assertTrue(Math.abs(trace.length() - mean.hits() - mean.writes()) <= 1, mean.toString());
  }

  @Test
  void exactPoliciesReplayOnce() {
    Trace trace = skewed();
    assertEquals(Replay.run(trace, 0.1, PolicyKind.LRU, SETUP, 1), Replay.run(trace, 0.1, PolicyKind.LRU, SETUP, 3));
    assertTrue(PolicyKind.L2.hashesKeys());
    assertTrue(!PolicyKind.OPT.hashesKeys() && !PolicyKind.HBASE_LRU.hashesKeys());
  }
}
