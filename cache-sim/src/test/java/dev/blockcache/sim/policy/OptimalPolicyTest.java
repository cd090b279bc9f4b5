package dev.blockcache.sim.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.sim.trace.Trace;
import org.junit.jupiter.api.Test;

/** Belady's OPT against hits computed by hand. */
class OptimalPolicyTest {

  @Test
  void nextUsesPointAtTheNextAccessOrPastTheTrace() {
    // positions:             0  1  2  3  4  5
    Trace trace = Traces.of(1, 2, 3, 1, 2, 3);
    assertArrayEquals(new int[] {3, 4, 5, 6 + 3, 6 + 4, 6 + 5}, OptimalPolicy.nextUses(trace));
  }

  /**
   * A loop of 3 keys through 2 slots: LRU never hits. OPT at 2 (key 3 misses; the next uses are 1→3, 2→4, 3→5) lets
   * key 3 pass through, then hits 1 and 2; key 3 misses again at 5. Two hits.
   */
  @Test
  void aLoopLargerThanTheCache() {
    Trace trace = Traces.of(1, 2, 3, 1, 2, 3);
    assertArrayEquals(new boolean[] {false, false, false, true, true, false},
        Traces.hits(new OptimalPolicy(trace, 2), trace));
    assertArrayEquals(new boolean[6], Traces.hits(new LruPolicy(2), trace));
  }

  /**
   * 1 2 3 1 2 4 1 2 3 4 in 3 slots: at 5 (key 4) the next uses are 1→6, 2→7, 3→8, 4→9, so 4 passes through and 1,
   * 2 and 3 hit at 6, 7 and 8; 4 misses at 9. Five hits; LRU, which evicts 3 at 5 and 4 at 8, has four.
   */
  @Test
  void evictsTheFarthestNextUse() {
    Trace trace = Traces.of(1, 2, 3, 1, 2, 4, 1, 2, 3, 4);
    assertArrayEquals(new boolean[] {false, false, false, true, true, false, true, true, true, false},
        Traces.hits(new OptimalPolicy(trace, 3), trace));
    assertArrayEquals(new boolean[] {false, false, false, true, true, false, true, true, false, false},
        Traces.hits(new LruPolicy(3), trace));
  }

  /**
   * 1 2 1 3 2 1 in 2 slots: at 3 (key 3, never used again) 3 passes through; at 4 key 2 hits. A resident key is
   * evicted when it is the farthest: 1 2 3 2 3 1 evicts 1 (next use 5) for 3 (next use 4) at 2.
   */
  @Test
  void evictsAResidentWhenItIsFartherThanTheMissedKey() {
    Trace passes = Traces.of(1, 2, 1, 3, 2, 1);
    assertArrayEquals(new boolean[] {false, false, true, false, true, true},
        Traces.hits(new OptimalPolicy(passes, 2), passes));
    Trace evicts = Traces.of(1, 2, 3, 2, 3, 1);
    assertArrayEquals(new boolean[] {false, false, false, true, true, false},
        Traces.hits(new OptimalPolicy(evicts, 2), evicts));
  }

  @Test
  void noPolicyBeatsOpt() {
    Trace trace = Traces.uniform(500, 20_000, 18);
    for (int capacity : new int[] {1, 10, 100, 499, 500}) {
      double opt = Traces.ratio(new OptimalPolicy(trace, capacity), trace);
      double lru = Traces.ratio(new LruPolicy(capacity), trace);
      double caffeine = Traces.ratio(CaffeinePolicy.ofEntries(capacity), trace);
      assertTrue(opt >= lru && opt >= caffeine, capacity + ": OPT " + opt + ", LRU " + lru + ", Caffeine " + caffeine);
    }
    // Room for every key: only the first access to each misses.
    assertTrue(Traces.ratio(new OptimalPolicy(trace, 500), trace) == (20_000 - trace.distinctKeys()) / 20_000.0);
  }

  @Test
  void replaysOnlyItsOwnTrace() {
    Trace trace = Traces.of(1, 2);
    OptimalPolicy opt = new OptimalPolicy(trace, 1);
    assertThrows(IllegalStateException.class, () -> opt.access(2));
  }
}
