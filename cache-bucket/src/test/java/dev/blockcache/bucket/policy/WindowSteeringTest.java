package dev.blockcache.bucket.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.index.AccessSamples;
import dev.blockcache.bucket.index.FrequencySketch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The steering on synthetic lookups of a cache of {@value #BLOCKS} blocks that hits exactly what an LRU of its size
 * hits (so the recency reference never leads), checked every 16 lookups as the eviction policy checks it.
 */
class WindowSteeringTest {
  private static final int BLOCKS = 200;
  private static final double LOWER = 0.01;
  private static final double UPPER = 0.8;

  /** A stretch of requests over which the window's share stayed the same. */
  private record Run(double share, long requests) {}

  /** The shares the window took over {@code lookups} lookups of {@code workload}, with how long it held each. */
  private static List<Run> steer(WindowSteering steering, AccessSamples samples, ShiftingWorkingSets workload,
      int lookups) {
    RecencyShadow lru = new RecencyShadow(BLOCKS);
    List<Run> runs = new ArrayList<>();
    double share = steering.share();
    long runStart = 0;
    long hits = 0;
    for (int i = 1; i <= lookups; i++) {
      long key = workload.next();
      boolean hit = lru.access(key);
      hits += hit ? 1 : 0;
      samples.record(key, hit);
      if (i % FrequencyEviction.CLIMB_CHECK_INTERVAL == 0) {
        steering.check(hits, i, BLOCKS);
        if (steering.share() != share) {
          runs.add(new Run(share, i - runStart));
          share = steering.share();
          runStart = i;
        }
      }
    }
    runs.add(new Run(share, lookups - runStart));
    return runs;
  }

  /** The runs of a steering over working sets that fit and shift: recency wins, so a large window does. */
  private static List<Run> steeredWhereRecencyWins() {
    AccessSamples samples = new AccessSamples();
    WindowSteering steering = new WindowSteering(LOWER, UPPER, samples);
    return steer(steering, samples, new ShiftingWorkingSets(150, 1_500, 3), 60 * WindowSteering.CLIMB_SAMPLE);
  }

  /** The index of the first run at a large trial share, after steps no larger than a glide's; fails if none. */
  private static int reachedLargeTrialShare(List<Run> runs) {
    double[] trialShares = WindowTrials.sharesBetween(LOWER, UPPER);
    for (int r = 1; r < runs.size(); r++) {
      double now = runs.get(r).share();
      assertTrue(Math.abs(now - runs.get(r - 1).share()) <= WindowSteering.GLIDE + 1e-9, "a glide: " + runs);
      if (now >= 0.5 && Arrays.stream(trialShares).anyMatch(s -> s == now)) {
        return r;
      }
    }
    throw new AssertionError("the window never reaches a large trial share: " + runs);
  }

  @Test
  void whereRecencyWinsTheWindowGlidesToALargeTrialShare() {
    List<Run> runs = steeredWhereRecencyWins();
    int reached = reachedLargeTrialShare(runs);
    assertTrue(reached >= 4, "in steps of at most an eighth from the lower bound: " + runs);
  }

  @Test
  void aSmallCacheGlidesAtThePaceOfItsTurnoverNotOfTheClimbersSamples() {
    List<Run> runs = steeredWhereRecencyWins();
    int reached = reachedLargeTrialShare(runs);
    int firstStep = reached;
    while (firstStep > 1 && runs.get(firstStep - 1).share() > runs.get(firstStep - 2).share()) {
      firstStep--; // back to the first step of the glide that ended there
    }
    long glide = 0;
    for (int r = firstStep; r < reached; r++) {
      assertTrue(runs.get(r).requests() >= BLOCKS, "a step after a cache's worth of misses at least: " + runs);
      glide += runs.get(r).requests();
    }
    assertTrue(glide < WindowSteering.CLIMB_SAMPLE, "the whole glide within one climber sample: " + runs);
  }

  /**
   * Blocks of the cache that fills in {@link #lookupsToGrowAfterTheFill}: its fill takes more sampled lookups than the
   * samples' rings hold.
   */
  private static final int FILL_BLOCKS = 2_000;

  /**
   * Lookups where each new key is read once more {@code distance} new keys later (and as many re-read ones): an LRU
   * of {@value #FILL_BLOCKS} blocks hits every second lookup if twice the distance is below its size, a cache whose
   * 1% window lets the new keys go before their second read hits none of them.
   */
  private static long reuseAfter(int distance, int lookup) {
    int newKeys = lookup / 2;
    return 1L + (lookup % 2 == 0 ? newKeys : Math.max(0, newKeys - distance));
  }

  /** Whether the steering is handed the lookups sampled while the cache fills, as the eviction policy hands them. */
  private enum FillLookups { HANDED_OVER, NOT_HANDED_OVER }

  /**
   * Lookups the window took to grow once the cache was full (0: at the first check), for a cache that hit what LRU
   * hit while it filled and nothing after, on lookups that read each new key again {@code distance} new keys later.
   */
  private static int lookupsToGrowAfterTheFill(FillLookups fill, int distance) {
    AccessSamples samples = new AccessSamples();
    WindowSteering steering = new WindowSteering(LOWER, UPPER, samples);
    RecencyShadow lru = new RecencyShadow(FILL_BLOCKS);
    int lookup = 0;
    long hits = 0;
    while (lru.size() < FILL_BLOCKS) { // the fill: every new key is cached
      boolean hit = lru.access(reuseAfter(distance, lookup));
      hits += hit ? 1 : 0;
      samples.record(reuseAfter(distance, lookup), hit);
      lookup++;
      if (fill == FillLookups.HANDED_OVER && !hit && lru.size() % SpaceReclaimer.WARM_INTERVAL == 0) {
        steering.warm(lru.size());
      }
    }
    steering.check(hits, lookup, FILL_BLOCKS);
    if (steering.share() > LOWER) {
      return 0;
    }
    for (int after = 1; after <= 4 * RecencyReference.MIN_LOOKUPS; after++, lookup++) {
      samples.record(reuseAfter(distance, lookup), false);
      if (after % FrequencyEviction.CLIMB_CHECK_INTERVAL == 0) {
        steering.check(hits, lookup + 1, FILL_BLOCKS);
        if (steering.share() > LOWER) {
          return after;
        }
      }
    }
    throw new AssertionError("the window never grew: " + steering);
  }

  @Test
  void aReferenceWarmedDuringTheFillShowsLrusLeadRightAfterIt() {
    // about 2 x 850 distinct keys between a key's two reads: within the cache, beyond the starting share's
    // miniatures, which hold three quarters of its blocks
    int distance = 850;
    int warmed = lookupsToGrowAfterTheFill(FillLookups.HANDED_OVER, distance);
    assertTrue(warmed > 0, "every share of a ¾-size miniature misses every re-read: no starting share");
    assertTrue(warmed <= RecencyReference.MIN_LOOKUPS + 2 * FrequencyEviction.CLIMB_CHECK_INTERVAL,
        warmed + " lookups after the fill");
    int cold = lookupsToGrowAfterTheFill(FillLookups.NOT_HANDED_OVER, distance);
    assertTrue(cold > warmed + FILL_BLOCKS / 2, "a shadow that sees only the fill's last samples fills first: " + cold);
  }

  @Test
  void aFillWhereRecencyWinsStartsTheWindowAboveTheLowerBoundAtTheFirstCheck() {
    assertEquals(0, lookupsToGrowAfterTheFill(FillLookups.HANDED_OVER, 50), "a large window keeps the re-read keys");
    assertTrue(lookupsToGrowAfterTheFill(FillLookups.NOT_HANDED_OVER, 50) > 0, "nothing recorded, nothing chosen");
  }

  @Test
  void aSmallCacheWhoseHotSetsGoColdAgesItsSketchOverItsOwnEntries() {
    AccessSamples samples = new AccessSamples();
    WindowSteering steering = new WindowSteering(LOWER, UPPER, samples);
    assertEquals(FrequencySketch.MIN_HISTORY_ENTRIES, steering.minimumHistory(), "the longer history until a duel");
    steer(steering, samples, new ShiftingWorkingSets(BLOCKS * 3 / 4, 8_000, 5), 10 * WindowSteering.CLIMB_SAMPLE);
    assertEquals(0, steering.minimumHistory(), "hot sets that go cold win the shorter history: " + steering);
  }

  @Test
  void withoutSampledLookupsTheClimberAloneMovesTheShare() {
    WindowSteering steering = new WindowSteering(LOWER, UPPER, null);
    assertEquals(LOWER, steering.share());
    steering.check(0, 0, BLOCKS); // starts the first sample
    steering.check(WindowSteering.CLIMB_SAMPLE / 2, WindowSteering.CLIMB_SAMPLE, BLOCKS);
    assertEquals(LOWER + WindowClimber.INITIAL_STEP, steering.share(), 1e-12, "the climber's first step is up");
    assertEquals(FrequencySketch.MIN_HISTORY_ENTRIES, steering.minimumHistory(), "the sketch's default history");
  }
}
