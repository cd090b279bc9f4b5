package dev.blockcache.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.Stoppable;
import org.junit.jupiter.api.Test;

/**
 * A region that left is forgotten when it comes back and has its blocks evicted once away for the grace period,
 * stepped by hand with an injected clock.
 */
class DepartedRegionsTest {
  private final AtomicLong now = new AtomicLong(1_000);
  private final Set<String> online = new HashSet<>();
  private final List<String> evicted = new ArrayList<>();
  private final DepartedRegions departed =
      new DepartedRegions(new NeverStopped(), 1_000, 5_000, online::contains, evicted::add, now::get);

  @Test
  void aRegionAwayForTheGraceHasItsBlocksEvictedOnceAndARegionBackKeepsThem() {
    departed.left("moved");
    departed.left("reopened");
    now.addAndGet(4_999);
    online.add("reopened");
    departed.chore();
    assertEquals(List.of(), evicted, "evicted before the grace");

    now.addAndGet(1);
    online.remove("reopened"); // it left once; back since, so not tracked any more
    departed.chore();
    assertEquals(List.of("moved"), evicted);
    now.addAndGet(10_000);
    departed.chore();
    assertEquals(List.of("moved"), evicted, "evicted twice");
  }

  private static final class NeverStopped implements Stoppable {
    @Override
    public void stop(String why) {}

    @Override
    public boolean isStopped() {
      return false;
    }
  }
}
