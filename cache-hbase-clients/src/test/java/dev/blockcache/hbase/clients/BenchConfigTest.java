package dev.blockcache.hbase.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's keys: defaults, HBase's BucketCache always among the stacks (every ratio divides by it), and a bad
 * value failing with the key, the value as written and what is accepted.
 *
 * <p>Thread-safety: JUnit's thread only; it sets and clears JVM system properties.
 */
@Tag("org.apache.hadoop.hbase.testclassification.SmallTests")
class BenchConfigTest {
  @AfterEach
  void clear() {
    for (String key : List.of(BenchConfig.WARMUP_ROUNDS, BenchConfig.ROUNDS, BenchConfig.STACKS, BenchConfig.DEVICE,
        BenchConfig.PE_THREADS)) {
      System.clearProperty(key);
    }
  }

  @Test
  void theBaselineIsAlwaysRun() {
    System.setProperty(BenchConfig.STACKS, "ours_exclusive");
    assertEquals(List.of(ClientStack.HBASE_BUCKET, ClientStack.OURS_EXCLUSIVE),
        BenchConfig.fromSystemProperties().stacks());
  }

  @Test
  void badValuesNameTheKeyTheValueAndWhatIsAccepted() {
    System.setProperty(BenchConfig.ROUNDS, "two");
    assertEquals("blockcache.rsclients.rounds='two': expected a positive integer",
        assertThrows(IllegalArgumentException.class, BenchConfig::fromSystemProperties).getMessage());
    System.clearProperty(BenchConfig.ROUNDS);
    System.setProperty(BenchConfig.WARMUP_ROUNDS, "-1");
    assertEquals("blockcache.rsclients.warmup.rounds='-1': expected a non-negative integer",
        assertThrows(IllegalArgumentException.class, BenchConfig::fromSystemProperties).getMessage());
    System.clearProperty(BenchConfig.WARMUP_ROUNDS);
    System.setProperty(BenchConfig.STACKS, "HBASE_BUCKET,MINE");
    assertEquals("blockcache.rsclients.stacks='HBASE_BUCKET,MINE': expected a comma-separated list of names of "
        + "ClientStack", assertThrows(IllegalArgumentException.class, BenchConfig::fromSystemProperties).getMessage());
    System.clearProperty(BenchConfig.STACKS);
    System.setProperty(BenchConfig.DEVICE, "ssd");
    assertEquals("blockcache.rsclients.device='ssd': expected one of none, sata-ssd, hdd, nvme",
        assertThrows(IllegalArgumentException.class, BenchConfig::fromSystemProperties).getMessage());
    System.clearProperty(BenchConfig.DEVICE);
    System.setProperty(BenchConfig.PE_THREADS, "1,0");
    assertEquals("blockcache.rsclients.pe.threads='1,0': expected a comma-separated list of positive thread counts",
        assertThrows(IllegalArgumentException.class, BenchConfig::fromSystemProperties).getMessage());
  }
}
