package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.alloc.ItemSizes;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.bucket.config.L2Policy;
import dev.blockcache.config.ConfigException;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class BucketCacheConfigTest {
  private static final long MB = 1024 * 1024;

  private static void rejects(String key, String valueText, Consumer<BucketCacheConfig.Builder> change) {
    BucketCacheConfig.Builder builder = BucketCacheConfig.builder("offheap", 64 * MB);
    change.accept(builder);
    ConfigException e = assertThrows(ConfigException.class, builder::build);
    assertEquals(key, e.key());
    assertTrue(e.getMessage().contains(valueText), e.getMessage());
  }

  @Test
  void defaultsAreHBases() {
    BucketCacheConfig c = BucketCacheConfig.builder("offheap", 64 * MB).build();
    assertArrayEquals(new int[] {5120, 9216, 17408, 33792, 41984, 50176, 58368, 66560, 99328, 132096, 197632,
        263168, 394240, 525312}, c.bucketSizes());
    assertEquals(4L * 525312 + 4096, c.bucketCapacity());
    assertEquals(3, c.writerThreads());
    assertEquals(64, c.writerQueueLength());
    assertEquals(0, c.queueAdditionWaitTimeMs());
    assertEquals(0.95f, c.acceptFactor());
    assertEquals(0.85f, c.minFactor());
    assertEquals(0.10f, c.extraFreeFactor());
    assertEquals(0.25f, c.singleFactor());
    assertEquals(0.50f, c.multiFactor());
    assertEquals(0.25f, c.memoryFactor());
    assertEquals(false, c.copyOnRead());
  }

  @Test
  void everyKeyRejectsBadValuesByName() {
    rejects(BucketCacheKeys.IOENGINE, "null", b -> b.ioEngine(null));
    rejects(BucketCacheKeys.IOENGINE, "  ", b -> b.ioEngine("  "));
    rejects(BucketCacheKeys.SIZE, "1000 bytes", b -> b.capacity(1000));
    rejects(BucketCacheKeys.BUCKET_SIZES, "5000", b -> b.bucketSizes(5000, 9216));
    rejects(BucketCacheKeys.BUCKET_SIZES, "ascending", b -> b.bucketSizes(9216, 5120));
    rejects(BucketCacheKeys.BUCKET_SIZES, "ascending", b -> b.bucketSizes(5120, 5120));
    rejects(BucketCacheKeys.BUCKET_SIZES, "list", b -> b.bucketSizes());
    rejects(BucketCacheKeys.BUCKET_SIZES, "-256", b -> b.bucketSizes(-256));
    rejects(BucketCacheKeys.WRITER_THREADS, "0", b -> b.writerThreads(0));
    rejects(BucketCacheKeys.WRITER_THREADS, "65", b -> b.writerThreads(65));
    rejects(BucketCacheKeys.WRITER_QUEUE_LENGTH, "0", b -> b.writerQueueLength(0));
    rejects(BucketCacheKeys.QUEUE_ADDITION_WAIT_TIME, "-1", b -> b.queueAdditionWaitTimeMs(-1));
    rejects(BucketCacheKeys.ACCEPT_FACTOR, "1.5", b -> b.acceptFactor(1.5f));
    rejects(BucketCacheKeys.ACCEPT_FACTOR, "0.0", b -> b.acceptFactor(0f));
    rejects(BucketCacheKeys.MIN_FACTOR, "0.96", b -> b.minFactor(0.96f));
    rejects(BucketCacheKeys.MIN_FACTOR, "NaN", b -> b.minFactor(Float.NaN));
    rejects(BucketCacheKeys.EXTRA_FREE_FACTOR, "1.0", b -> b.extraFreeFactor(1f));
    rejects(BucketCacheKeys.EXTRA_FREE_FACTOR, "-0.1", b -> b.extraFreeFactor(-0.1f));
    rejects(BucketCacheKeys.SINGLE_FACTOR, "-0.1", b -> b.priorityFactors(-0.1f, 0.6f, 0.5f));
    rejects(BucketCacheKeys.MULTI_FACTOR, "1.2", b -> b.priorityFactors(0f, 1.2f, 0f));
    rejects(BucketCacheKeys.MEMORY_FACTOR, "2.0", b -> b.priorityFactors(0f, 0f, 2f));
    rejects(BucketCacheKeys.SINGLE_FACTOR + " + " + BucketCacheKeys.MULTI_FACTOR + " + "
        + BucketCacheKeys.MEMORY_FACTOR, "0.9", b -> b.priorityFactors(0.3f, 0.3f, 0.3f));
    rejects(BucketCacheKeys.ADMISSION_WINDOW, "0.95", b -> b.admissionWindow(0.95f));
    rejects(BucketCacheKeys.ADMISSION_WINDOW, "-0.1", b -> b.admissionWindow(-0.1f));
    rejects(BucketCacheKeys.ADMISSION_WINDOW_MAX, "0.95", b -> b.admissionWindowMax(0.95f));
    rejects(BucketCacheKeys.ADMISSION_WINDOW_MAX, "NaN", b -> b.admissionWindowMax(Float.NaN));
  }

  @Test
  void theWindowRangeDefaultsToOnePercentToEightyAndItsTopCannotBeBelowItsBottom() {
    BucketCacheConfig c = BucketCacheConfig.builder("offheap", 64 * MB).build();
    assertEquals(0.01f, c.admissionWindow());
    assertEquals(0.9f, c.admissionWindowMax());
    ConfigException e = assertThrows(ConfigException.class,
        () -> BucketCacheConfig.builder("offheap", 64 * MB).admissionWindow(0.5f).admissionWindowMax(0.4f).build());
    assertEquals(BucketCacheKeys.ADMISSION_WINDOW_MAX, e.key());
    assertTrue(e.getMessage().contains("0.4") && e.getMessage().contains(BucketCacheKeys.ADMISSION_WINDOW)
        && e.getMessage().contains("0.9"), e.getMessage());
    assertEquals(0.3f, BucketCacheConfig.builder("offheap", 64 * MB).admissionWindow(0.3f).admissionWindowMax(0.3f)
        .build().admissionWindowMax(), "equal bounds fix the share");
  }

  @Test
  void fileEngineKeysDefaultToBufferedVerifiedAndTolerant() {
    BucketCacheConfig c = BucketCacheConfig.builder("file:/data/cache.bin", 64 * MB).build();
    assertEquals(false, c.fileDirectIo());
    assertEquals(true, c.checksumVerify());
    assertEquals(60_000, c.ioErrorsToleratedMs());
  }

  @Test
  void toBuilderKeepsEveryValue() {
    BucketCacheConfig c = BucketCacheConfig.builder("file:/c", 64 * MB).bucketSizes(1280, 8192).writerThreads(5)
        .writerQueueLength(7).queueAdditionWaitTimeMs(9).acceptFactor(0.9f).minFactor(0.8f).extraFreeFactor(0.2f)
        .priorityFactors(0.5f, 0.25f, 0.25f).copyOnRead(true).fileDirectIo(true).checksumVerify(false)
        .ioErrorsToleratedMs(11).persistentPath("/p").persistIntervalMs(13).evictionPolicy(L2Policy.HBASE)
        .maxWriteRate(17).admissionWindow(0.05f).admissionWindowMax(0.6f).build();
    BucketCacheConfig copy = c.toBuilder().build();
    assertEquals(describe(c), describe(copy));
    assertEquals(32 * MB, c.toBuilder().capacity(32 * MB).build().capacity());
    assertEquals(64 * MB, c.capacity(), "the original is unchanged");
  }

  private static String describe(BucketCacheConfig c) {
    return String.join(",", c.ioEngine(), "" + c.capacity(), Arrays.toString(c.bucketSizes()),
        "" + c.writerThreads(), "" + c.writerQueueLength(), "" + c.queueAdditionWaitTimeMs(), "" + c.acceptFactor(),
        "" + c.minFactor(), "" + c.extraFreeFactor(), "" + c.singleFactor(), "" + c.multiFactor(),
        "" + c.memoryFactor(), "" + c.copyOnRead(), "" + c.writerInline(), "" + c.fileDirectIo(),
        "" + c.checksumVerify(), "" + c.ioErrorsToleratedMs(), c.persistentPath(), "" + c.persistIntervalMs(),
        "" + c.evictionPolicy(), "" + c.maxWriteRate(), "" + c.admissionWindow(), "" + c.admissionWindowMax());
  }

  @Test
  void itemSizesFollowTheAllocatorsRule() {
    for (int[] sizes : new int[][] {{1280, 1024}, {1000, 2048}, {0, 1280}, {1280, 1280}, {256, 1 << 30}}) {
      String problem = ItemSizes.problem(sizes);
      assertTrue(problem != null, Arrays.toString(sizes));
      ConfigException e = assertThrows(ConfigException.class,
          () -> BucketCacheConfig.builder("offheap", 64 * MB).bucketSizes(sizes).build());
      assertEquals(BucketCacheKeys.BUCKET_SIZES, e.key());
      assertTrue(e.getMessage().contains(problem), e.getMessage());
    }
    assertEquals(ItemSizes.bucketCapacity(new int[] {1280, 8192}, 64 * MB),
        BucketCacheConfig.builder("offheap", 64 * MB).bucketSizes(1280, 8192).build().bucketCapacity());
  }

  @Test
  void fileEngineKeysRejectBadValuesNamingTheKey() {
    rejects(BucketCacheKeys.IO_ERRORS_TOLERATED_DURATION, "-1", b -> b.ioErrorsToleratedMs(-1));
  }

  @Test
  void persistenceIsOffByDefaultWithAOneSecondInterval() {
    BucketCacheConfig c = BucketCacheConfig.builder("file:/c", 64 * MB).build();
    assertEquals(null, c.persistentPath());
    assertEquals(1000, c.persistIntervalMs());
    assertEquals("/p/index", BucketCacheConfig.builder("file:/c", 64 * MB).persistentPath(" /p/index ").build()
        .persistentPath());
  }

  @Test
  void persistenceKeysRejectBadValuesNamingTheKey() {
    rejects(BucketCacheKeys.PERSIST_INTERVAL, "0", b -> b.persistIntervalMs(0));
    rejects(BucketCacheKeys.PERSIST_INTERVAL, "86400001", b -> b.persistIntervalMs(86_400_001L));
    rejects(BucketCacheKeys.PERSISTENT_PATH, " ", b -> b.persistentPath(" "));
  }
}
