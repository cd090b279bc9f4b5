package dev.blockcache.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.CacheStats;
import dev.blockcache.api.ReadOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link StatsRecorder#lookup} counts exactly as {@link StatsRecorder#hit} and {@link StatsRecorder#miss} do. */
class StatsRecorderTest {
  private static final Object FOUND = new Object();

  @Test
  void aLookupCountsAsTheHitOrMissItWas() {
    List<ReadOptions> options = List.of(ReadOptions.of(BlockCategory.DATA), ReadOptions.of(BlockCategory.INDEX),
        ReadOptions.of(BlockCategory.BLOOM).notCaching(), ReadOptions.of(BlockCategory.DATA).repeat(),
        ReadOptions.of(BlockCategory.DATA).withoutStats());
    StatsRecorder byLookup = new StatsRecorder();
    StatsRecorder byHitAndMiss = new StatsRecorder();
    for (ReadOptions option : options) {
      byLookup.lookup(option, FOUND);
      byLookup.lookup(option, null);
      byHitAndMiss.hit(option);
      byHitAndMiss.miss(option);
    }
    CacheStats lookups = byLookup.snapshot(1, 0, new long[BlockCategory.COUNT]);
    CacheStats hitsAndMisses = byHitAndMiss.snapshot(1, 0, new long[BlockCategory.COUNT]);
    for (BlockCategory category : BlockCategory.values()) {
      assertEquals(hitsAndMisses.hitCount(category), lookups.hitCount(category), category + " hits");
      assertEquals(hitsAndMisses.missCount(category), lookups.missCount(category), category + " misses");
    }
    assertEquals(hitsAndMisses.cachingHitCount(), lookups.cachingHitCount());
    assertEquals(hitsAndMisses.cachingMissCount(), lookups.cachingMissCount());
    assertEquals(4, lookups.hitCount(), "every hit but the one without stats");
    assertEquals(3, lookups.missCount(), "every miss but the repeated one and the one without stats");
  }
}
