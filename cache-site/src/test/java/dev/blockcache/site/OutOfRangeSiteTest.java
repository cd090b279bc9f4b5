package dev.blockcache.site;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Values an outside acceptance run found accepted, or refused without naming the key: each is refused by the reader
 * with a {@link ConfigException} naming the key, the value and what is accepted. Also pins that an hbase-site.xml
 * with an external entity is refused before any parser resolves it, and the entity's content appears nowhere.
 */
class OutOfRangeSiteTest {
  private static final long HEAP = 1L << 30;

  private static SiteConfig read(Map<String, String> values) {
    Configuration conf = new Configuration(false);
    values.forEach(conf::set);
    return SiteConfigReader.read(conf, HEAP);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1e12", "8388609", "3.4e38"})
  void anAbsurdL2SizeNamesTheKeyTheValueAndTheRange(String size) {
    ConfigException e = assertThrows(ConfigException.class,
        () -> read(Map.of(BucketCacheKeys.IOENGINE, "offheap", BucketCacheKeys.SIZE, size)));
    assertEquals(BucketCacheKeys.SIZE, e.key());
    assertEquals(size, e.value());
    assertTrue(e.getMessage().contains("[1, 8388608]"), e.getMessage());
  }

  @Test
  void anOffheapL2AboveDirectMemoryIsRefusedQuotingTheSizeAsWritten() {
    SiteConfig site = read(Map.of(BucketCacheKeys.IOENGINE, "offheap", BucketCacheKeys.SIZE, "4000000"));
    ConfigException e = assertThrows(ConfigException.class, () -> BucketCache.create(site.l2().orElseThrow()));
    assertEquals(BucketCacheKeys.SIZE, e.key());
    assertEquals("4000000", e.value());
    assertTrue(e.getMessage().startsWith(BucketCacheKeys.SIZE + "=4000000 is not accepted"), e.getMessage());
    assertTrue(e.getMessage().contains("-XX:MaxDirectMemorySize"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(longs = {(8L << 40) + 1, Long.MAX_VALUE})
  void aBuiltCapacityAboveWhatTheIndexAddressesIsRefused(long bytes) {
    ConfigException e = assertThrows(ConfigException.class,
        () -> BucketCacheConfig.builder("file:/tmp/x", bytes).build());
    assertEquals(BucketCacheKeys.SIZE, e.key());
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.99", "0.41", "1.0"})
  void anL1ThatLeavesLessThanAFifthOfTheHeapWithTheMemstoreIsRefusedAsHBaseDoes(String fraction) {
    ConfigException e = assertThrows(ConfigException.class,
        () -> read(Map.of(SiteConfigReader.L1_SIZE, fraction)));
    assertEquals(SiteConfigReader.L1_SIZE, e.key());
    assertEquals(fraction, e.value());
    assertTrue(e.getMessage().contains(SiteConfigReader.MEMSTORE_SIZE + "=0.4"), e.getMessage());
  }

  @Test
  void theL1AndMemstoreMayTogetherTakeExactlyEightyPercent() {
    assertTrue(read(Map.of(SiteConfigReader.L1_SIZE, "0.4")).enabled());
    assertTrue(read(Map.of(SiteConfigReader.L1_SIZE, "0.6", SiteConfigReader.MEMSTORE_SIZE, "0.2")).enabled());
    ConfigException e = assertThrows(ConfigException.class,
        () -> read(Map.of(SiteConfigReader.L1_MEMORY_SIZE, "900m")));
    assertEquals(SiteConfigReader.L1_MEMORY_SIZE, e.key());
  }

  @ParameterizedTest
  @ValueSource(strings = {"256", "256,512,1024"})
  void bucketSizesThatCannotHoldAOneKibBlockAreRefused(String sizes) {
    ConfigException e = assertThrows(ConfigException.class, () -> read(Map.of(BucketCacheKeys.IOENGINE, "offheap",
        BucketCacheKeys.SIZE, "64", BucketCacheKeys.BUCKET_SIZES, sizes)));
    assertEquals(BucketCacheKeys.BUCKET_SIZES, e.key());
    assertEquals(sizes, e.value());
    assertTrue(e.getMessage().contains("1280"), e.getMessage());
  }

  @Test
  void anExternalEntityIsNeverResolvedNorEchoed(@TempDir Path dir) throws Exception {
    Path secret = Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET-CONTENT");
    Path site = Files.writeString(dir.resolve("hbase-site.xml"), "<?xml version=\"1.0\"?>\n"
        + "<!DOCTYPE configuration [<!ENTITY leak SYSTEM \"" + secret.toUri() + "\">]>\n"
        + "<configuration><property><name>hbase.bucketcache.ioengine</name><value>&leak;</value></property>"
        + "</configuration>\n");
    ConfigException e = assertThrows(ConfigException.class, () -> SiteConfigReader.read(site, HEAP));
    assertEquals("hbase-site.xml", e.key());
    assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
    assertFalse(e.getMessage().contains("TOP-SECRET"), e.getMessage());
  }
}
