package dev.blockcache.hbase.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PairClockTest {
  private static void gets(PairClock clock, int count) {
    for (int i = 0; i < count; i++) {
      clock.done(1_000);
    }
  }

  @Test
  void switchesSidesAfterEachBatchAndBooksTheBatchToTheSideThatReadIt() {
    PairClock clock = new PairClock();

    gets(clock, PairClock.BATCH - 1);
    assertEquals(PairClock.HBASE, clock.side(), "a batch is not over before its last get");
    assertEquals(0, clock.gets(PairClock.HBASE), "nothing booked mid-batch");

    gets(clock, 1);
    assertEquals(PairClock.COMPETITOR, clock.side());
    assertEquals(PairClock.BATCH, clock.gets(PairClock.HBASE));
    assertEquals(0, clock.gets(PairClock.COMPETITOR));

    gets(clock, PairClock.BATCH);
    assertEquals(PairClock.HBASE, clock.side());
    assertEquals(PairClock.BATCH, clock.gets(PairClock.HBASE));
    assertEquals(PairClock.BATCH, clock.gets(PairClock.COMPETITOR));
  }
}
