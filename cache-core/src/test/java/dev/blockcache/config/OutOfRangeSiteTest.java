package dev.blockcache.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Values an outside acceptance run found accepted, or refused without naming the key: each is refused by the reader
 * with a {@link ConfigException} naming the key, the value and what is accepted.
 */
class OutOfRangeSiteTest {
  private static final long HEAP = 1L << 30;

  private static SiteConfig read(Map<String, String> values) {
    Configuration conf = new Configuration(false);
    values.forEach(conf::set);
    return SiteConfigReader.read(conf, HEAP);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1e12", "4194305", "3.4e38"})
  void anAbsurdL2SizeNamesTheKeyTheValueAndTheRange(String size) {
    ConfigException e = assertThrows(ConfigException.class,
        () -> read(Map.of(BucketCacheConfig.IOENGINE, "offheap", BucketCacheConfig.SIZE, size)));
    assertEquals(BucketCacheConfig.SIZE, e.key());
    assertEquals(size, e.value());
    assertTrue(e.getMessage().contains("[1, 4194304]"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(longs = {(4L << 40) + 1, Long.MAX_VALUE})
  void aBuiltCapacityAboveWhatTheIndexAddressesIsRefused(long bytes) {
    ConfigException e = assertThrows(ConfigException.class,
        () -> BucketCacheConfig.builder("file:/tmp/x", bytes).build());
    assertEquals(BucketCacheConfig.SIZE, e.key());
  }
}
