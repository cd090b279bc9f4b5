package dev.blockcache.jmh.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.ProfilerConfig;

/** {@code bench.prof} reaches JMH as a profiler name with its options split off at the first colon. */
class BenchProfilerTest {

  private static List<ProfilerConfig> profilers(String spec) {
    ChainedOptionsBuilder options = new OptionsBuilder();
    Bench.addProfiler(options, spec);
    return options.build().getProfilers();
  }

  @Test
  void aBareNameAddsTheProfilerWithoutOptions() {
    List<ProfilerConfig> added = profilers(" gc ");
    assertEquals(1, added.size());
    assertEquals("gc", added.get(0).getKlass());
    assertEquals("", added.get(0).getOpts());
  }

  @Test
  void optionsAfterTheFirstColonGoToTheProfiler() {
    List<ProfilerConfig> added = profilers("async:libPath=/opt/ap/lib.so;event=itimer;dir=/tmp/a:b");
    assertEquals(1, added.size());
    assertEquals("async", added.get(0).getKlass());
    assertEquals("libPath=/opt/ap/lib.so;event=itimer;dir=/tmp/a:b", added.get(0).getOpts());
  }

  @Test
  void blankAddsNothingAndAMissingNameIsRefused() {
    assertTrue(profilers("  ").isEmpty());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> profilers(":lines=1"));
    assertTrue(e.getMessage().contains("bench.prof ':lines=1'"), e.getMessage());
  }
}
