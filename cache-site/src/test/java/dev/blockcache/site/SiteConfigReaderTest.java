package dev.blockcache.site;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.config.L2Policy;
import dev.blockcache.config.ConfigException;
import dev.blockcache.config.L1Policy;
import dev.blockcache.config.LruConfig;
import dev.blockcache.config.TinyLfuConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SiteConfigReaderTest {
  private static final long HEAP = 1L << 30;

  @TempDir
  Path dir;

  private static Configuration conf(Map<String, String> values) {
    Configuration conf = new Configuration(false);
    values.forEach(conf::set);
    return conf;
  }

  private Path site(String properties) throws Exception {
    Path file = dir.resolve("hbase-site.xml");
    Files.writeString(file, "<?xml version=\"1.0\"?>\n<configuration>\n" + properties + "</configuration>\n");
    return file;
  }

  private static String property(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }

  @Test
  void anEmptyConfigurationIsHBasesDefaultLruL1OfFortyPercentOfTheHeapAndNoL2() {
    SiteConfig site = SiteConfigReader.read(conf(Map.of()), HEAP);
    assertTrue(site.enabled());
    assertEquals(L1Policy.LRU, site.policy());
    LruConfig lru = site.lru().orElseThrow();
    assertEquals((long) (HEAP * (double) 0.4f), lru.capacity());
    assertEquals(LruConfig.DEFAULT_MIN_FACTOR, lru.minFactor());
    assertEquals(LruConfig.DEFAULT_ACCEPTABLE_FACTOR, lru.acceptableFactor());
    assertFalse(site.l2().isPresent());
    assertEquals(List.of(), site.reportedKeys());
  }

  @Test
  void anHBaseSiteFileWithAnOffheapL2LoadsEveryValue() throws Exception {
    Path file = site(property("hfile.block.cache.size", "0.2")
        + property("hbase.lru.blockcache.single.percentage", "0.3")
        + property("hbase.lru.blockcache.multi.percentage", "0.4")
        + property("hbase.lru.blockcache.memory.percentage", "0.3")
        + property("hbase.lru.rs.inmemoryforcemode", "true")
        + property("hbase.bucketcache.ioengine", "offheap")
        + property("hbase.bucketcache.size", "64.5")
        + property("hbase.bucketcache.bucket.sizes", "5120, 9216,66560")
        + property("hbase.bucketcache.writer.threads", "2")
        + property("hbase.bucketcache.queue.addition.waittime", "100")
        + property("hbase.bucketcache.read.copy", "TRUE")
        + property("hbase.bucketcache.persistent.path", "/data/l2.index")
        + property("hbase.bucketcache.persist.intervalinmillis", "5000")
        + property("hbase.bucketcache.eviction.policy", " HBase ")
        + property("hbase.bucketcache.admission.max.write.rate", "64m"));
    SiteConfig site = SiteConfigReader.read(file, HEAP);
    LruConfig lru = site.lru().orElseThrow();
    assertEquals((long) (HEAP * (double) 0.2f), lru.capacity());
    assertEquals(0.3f, lru.singlePercentage());
    assertTrue(lru.inMemoryForceMode());
    BucketCacheConfig l2 = site.l2().orElseThrow();
    assertEquals("offheap", l2.ioEngine());
    assertEquals((long) (64.5 * 1024 * 1024), l2.capacity());
    assertArrayEquals(new int[] {5120, 9216, 66560}, l2.bucketSizes());
    assertEquals(2, l2.writerThreads());
    assertEquals(100, l2.queueAdditionWaitTimeMs());
    assertTrue(l2.copyOnRead());
    assertTrue(l2.checksumVerify());
    assertEquals("/data/l2.index", l2.persistentPath());
    assertEquals(5000, l2.persistIntervalMs());
    assertEquals(L2Policy.HBASE, l2.evictionPolicy());
    assertEquals(64L << 20, l2.maxWriteRate());
    assertEquals(List.of(), site.reportedKeys());
  }

  @Test
  void memorySizeOverridesTheFraction() {
    SiteConfig site = SiteConfigReader.read(conf(Map.of("hfile.block.cache.size", "0.1",
        "hfile.block.cache.memory.size", "100m")), HEAP);
    assertEquals(100L << 20, site.l1Capacity());
  }

  @Test
  void tinyLfuPolicyBuildsTheTinyLfuConfigAndReportsLruKeys() {
    SiteConfig site = SiteConfigReader.read(conf(Map.of("hfile.block.cache.policy", "tinylfu",
        "hbase.tinylfu.max.block.size", "1048576", "hbase.lru.blockcache.min.factor", "0.9")), HEAP);
    assertEquals(L1Policy.TINYLFU, site.policy());
    assertEquals(1 << 20, site.tinyLfu().orElseThrow().maxBlockSize());
    assertFalse(site.lru().isPresent());
    assertEquals(1, site.reportedKeys().size());
    assertTrue(site.reportedKeys().get(0).startsWith("hbase.lru.blockcache.min.factor=0.9: applies to the LRU"),
        site.reportedKeys().toString());
  }

  @Test
  void aSizeAtOrBelowOneTenThousandthDisablesTheBlockCacheAndReportsTheL2Keys() {
    SiteConfig site = SiteConfigReader.read(conf(Map.of("hfile.block.cache.size", "0.0001",
        "hbase.bucketcache.ioengine", "offheap", "hbase.bucketcache.size", "64")), HEAP);
    assertFalse(site.enabled());
    assertEquals(0, site.l1Capacity());
    assertFalse(site.l2().isPresent());
    assertEquals(2, site.reportedKeys().size(), site.reportedKeys().toString());
    assertTrue(site.reportedKeys().get(0).contains("the block cache is disabled"));
  }

  @Test
  void storageEngineUnsupportedUnknownAndOrphanL2KeysAreReportedByName() {
    SiteConfig site = SiteConfigReader.read(conf(Map.of("hbase.rs.cacheblocksonwrite", "true",
        "hbase.blockcache.use.external", "true", "hbase.bucketcache.writer.threadz", "4",
        "hbase.bucketcache.size", "64")), HEAP);
    List<String> reports = site.reportedKeys();
    assertEquals(4, reports.size(), reports.toString());
    assertTrue(reports.stream().anyMatch(r -> r.startsWith("hbase.rs.cacheblocksonwrite=true: the storage engine")));
    assertTrue(reports.stream().anyMatch(r -> r.startsWith("hbase.blockcache.use.external=true: not supported")));
    assertTrue(reports.stream().anyMatch(r -> r.startsWith("hbase.bucketcache.writer.threadz=4: unknown")));
    assertTrue(reports.stream().anyMatch(r -> r.startsWith("hbase.bucketcache.size=64: not applied: no L2")));
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(delimiter = '|', value = {
      "hfile.block.cache.size | 1.5",
      "hfile.block.cache.size | -0.1",
      "hfile.block.cache.size | forty",
      "hfile.block.cache.memory.size | 10x",
      "hfile.block.cache.memory.size | -5",
      "hfile.block.cache.memory.size | 2g",
      "hfile.block.cache.policy | LFU",
      "hbase.lru.blockcache.min.factor | 1.5",
      "hbase.lru.blockcache.min.factor | high",
      "hbase.lru.blockcache.acceptable.factor | 0",
      "hbase.lru.blockcache.hard.capacity.limit.factor | 0.5",
      "hbase.lru.blockcache.single.percentage | 0.5",
      "hbase.lru.blockcache.multi.percentage | 1.2",
      "hbase.lru.blockcache.memory.percentage | -0.25",
      "hbase.lru.rs.inmemoryforcemode | yes",
      "hbase.lru.max.block.size | 0",
      "hbase.lru.max.block.size | 16MB",
      "hbase.blockcache.minblocksize | -1",
      "hbase.bucketcache.size | 0.5",
      "hbase.bucketcache.size | big",
      "hbase.bucketcache.size | 1",
      "hbase.bucketcache.bucket.sizes | 5000,9216",
      "hbase.bucketcache.bucket.sizes | 9216,5120",
      "hbase.bucketcache.bucket.sizes | 5120,x",
      "hbase.bucketcache.writer.threads | 0",
      "hbase.bucketcache.writer.threads | 99999999999",
      "hbase.bucketcache.writer.queuelength | 0",
      "hbase.bucketcache.queue.addition.waittime | -1",
      "hbase.bucketcache.acceptfactor | 1.1",
      "hbase.bucketcache.minfactor | 0.99",
      "hbase.bucketcache.extrafreefactor | 1",
      "hbase.bucketcache.single.factor | 0.9",
      "hbase.bucketcache.multi.factor | x",
      "hbase.bucketcache.memory.factor | 2",
      "hbase.bucketcache.ioengine.errors.tolerated.duration | -1",
      "hbase.bucketcache.persist.intervalinmillis | 0",
      "hbase.bucketcache.persist.intervalinmillis | soon",
      "hbase.bucketcache.read.copy | 1",
      "hbase.bucketcache.file.directio | on",
      "hbase.bucketcache.checksum.verify | no",
      "hbase.bucketcache.eviction.policy | lru",
      "hbase.bucketcache.admission.max.write.rate | fast",
      "hbase.bucketcache.admission.max.write.rate | -5",
      "hbase.bucketcache.admission.window.factor | 0.95",
      "hbase.bucketcache.admission.window.max.factor | 0.95",
      "hbase.bucketcache.admission.window.max.factor | 0.005",
      "hbase.bucketcache.admission.window.max.factor | wide",
  })
  void aBadValueIsAnErrorNamingTheKeyAndTheValue(String key, String value) {
    Configuration conf = conf(Map.of("hbase.bucketcache.ioengine", "offheap", "hbase.bucketcache.size", "64",
        "hfile.block.cache.policy", "LRU"));
    conf.set(key, value);
    ConfigException e = assertThrows(ConfigException.class, () -> SiteConfigReader.read(conf, HEAP));
    assertTrue(e.key().contains(key), "key " + e.key() + " does not name " + key + ": " + e.getMessage());
    assertTrue(e.getMessage().contains(value.trim()) || e.key().contains("+"),
        "message does not give the value " + value + ": " + e.getMessage());
    assertFalse(e.accepted().isBlank());
  }

  @Test
  void anEngineWithoutASizeIsAnErrorNamingTheSizeKey() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> SiteConfigReader.read(conf(Map.of("hbase.bucketcache.ioengine", "offheap")), HEAP));
    assertEquals(BucketCacheKeys.SIZE, e.key());
  }

  @Test
  void malformedXmlIsAnErrorNamingTheFileAndTheLine() throws Exception {
    Path file = dir.resolve("hbase-site.xml");
    Files.writeString(file, "<configuration>\n<property><name>hfile.block.cache.size</name>\n</configuration>\n");
    ConfigException e = assertThrows(ConfigException.class, () -> SiteConfigReader.read(file, HEAP));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("row,col") || e.getMessage().contains("line"), e.getMessage());
  }

  @Test
  void aMissingFileIsAnErrorNamingIt() {
    Path missing = dir.resolve("nope.xml");
    ConfigException e = assertThrows(ConfigException.class, () -> SiteConfigReader.read(missing, HEAP));
    assertTrue(e.getMessage().contains(missing.toString()));
  }

  @Test
  void inlineWritesAreReadReportTheWriterKeysAndTheEngineNameIsCaseInsensitive() {
    SiteConfig site = SiteConfigReader.read(conf(Map.of("hbase.bucketcache.ioengine", "OFFHEAP",
        "hbase.bucketcache.size", "64", "hbase.bucketcache.writer.inline", "true",
        "hbase.bucketcache.writer.threads", "5")), HEAP);
    assertTrue(site.l2().orElseThrow().writerInline());
    assertEquals(1, site.reportedKeys().size());
    assertTrue(site.reportedKeys().get(0).startsWith("hbase.bucketcache.writer.threads=5: not applied"),
        site.reportedKeys().toString());
  }

  @Test
  void theRemovedDeviceModelKeyIsReportedAsUnknown() {
    SiteConfig site = SiteConfigReader.read(conf(Map.of("hbase.bucketcache.ioengine", "offheap",
        "hbase.bucketcache.size", "64", "hbase.bucketcache.file.device.model", "nvme")), HEAP);
    assertEquals(1, site.reportedKeys().size());
    assertTrue(site.reportedKeys().get(0).startsWith("hbase.bucketcache.file.device.model=nvme: unknown"),
        site.reportedKeys().toString());
  }

  @Test
  void aSiteConfigCanBeOverriddenInCodeWithoutWritingTextBack() {
    SiteConfig site = SiteConfigReader.read(conf(Map.of("hbase.bucketcache.ioengine", "file:/data/l2.bin",
        "hbase.bucketcache.size", "64", "hbase.bucketcache.writer.threads", "5")), HEAP);
    BucketCacheConfig l2 = site.l2().orElseThrow().toBuilder().ioEngine("offheap").capacity(32L << 20).build();
    SiteConfig changed = site.withL2(l2);
    assertEquals("offheap", changed.l2().orElseThrow().ioEngine());
    assertEquals(32L << 20, changed.l2().orElseThrow().capacity());
    assertEquals(5, changed.l2().orElseThrow().writerThreads(), "keys not overridden keep their site values");
    assertEquals("file:/data/l2.bin", site.l2().orElseThrow().ioEngine(), "the original is unchanged");
    LruConfig lru = site.lru().orElseThrow().toBuilder().capacity(1L << 20).build();
    assertEquals(1L << 20, site.withLru(lru).lru().orElseThrow().capacity());
    assertEquals(1L << 20, site.withLru(lru).l1Capacity());
    assertThrows(IllegalArgumentException.class, () -> site.withTinyLfu(TinyLfuConfig.of(1L << 20)),
        "the site's policy is LRU");
  }
}
