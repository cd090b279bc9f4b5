package dev.blockcache.jmh.l1;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each L1 insert competitor does what {@link L1InsertBenchmark} relies on: it takes blocks into an empty cache, keeps
 * taking them once the cache is full (evicting).
 */
class L1InsertCompetitorTest {
  private static final int BLOCK = 4096;
  /** 64 blocks' worth: the 1,000 inserts below fill it many times over. */
  private static final long CAPACITY = 64L * (BLOCK + 1024);

  @ParameterizedTest
  @EnumSource(L1InsertCompetitor.class)
  void insertsAreTakenIntoAnEmptyCacheAndKeepComingOnceItIsFull(L1InsertCompetitor competitor) {
    try (L1InsertCompetitor.Inserter cache = competitor.create(CAPACITY, new Keys(BLOCK))) {
      for (int i = 0; i < 16; i++) {
        assertTrue(cache.insert(i), competitor + " refused block " + i + " of an empty cache");
      }
      // Past its capacity: an LRU whose evictor thread lags refuses until the thread has run, so offer until 1,000
      // blocks were taken (a cache that stopped taking blocks fails at the attempt limit).
      int taken = 0;
      long attempts = 0;
      for (long i = 16; taken < 1_000 && attempts < 10_000_000; i++, attempts++) {
        if (cache.insert(i)) {
          taken++;
        }
      }
      assertTrue(taken == 1_000, competitor + " took only " + taken + " blocks in " + attempts + " offers once full");
    }
  }
}
