package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.L2Policy;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

/**
 * Pins the tinylfu admission decision without a window ({@code admission.window.factor} 0): a full cache takes a
 * block only if it is used more than its victim. {@link WindowAdmissionTest} pins the window.
 */
class FrequencyAdmissionTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);

  static ReadOptions readOptions() {
    return DATA;
  }
  /** One size class of 2 KiB: 4 slots per 8 KiB bucket. */
  private static final int ITEM = 2048;
  private static final int SLOTS = 32;

  static BucketCache cache(L2Policy policy) {
    BucketCacheConfig config = BucketCacheConfig.builder("heap", (long) SLOTS * ITEM).bucketSizes(ITEM)
        .writerInline(true).evictionPolicy(policy).admissionWindow(0).build();
    return BucketCaches.create(config);
  }

  static CacheResult put(BucketCache cache, BlockKey key) {
    ByteBuf source = Blocks.payload(key, 1000);
    try {
      return cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA));
    } finally {
      source.release();
    }
  }

  /** Reads {@code key} {@code times} times (hits or misses: each counts in the sketch), releasing what it gets. */
  static void read(BucketCache cache, BlockKey key, int times) {
    for (int i = 0; i < times; i++) {
      ByteBuf b = cache.getBlock(key, DATA);
      if (b != null) {
        b.release();
      }
    }
  }

  private static BucketCache fullOfReadBlocks(int readsEach) {
    BucketCache cache = cache(L2Policy.TINYLFU);
    for (int i = 0; i < SLOTS; i++) {
      BlockKey key = BlockKey.of("resident", i);
      assertEquals(CacheResult.CACHED, put(cache, key));
      read(cache, key, readsEach);
    }
    assertFalse(cache.allocator().hasRoomFor(1041), "the cache should be full");
    return cache;
  }

  @Test
  void aBlockNoMoreFrequentThanItsVictimIsNotAdmittedAndEvictsNothing() {
    try (BucketCache cache = fullOfReadBlocks(3)) {
      BlockKey newcomer = BlockKey.of("new", 0);
      read(cache, newcomer, 2); // two misses: frequency 2 < 3
      assertEquals(CacheResult.NOT_ADMITTED, put(cache, newcomer));
      assertEquals(SLOTS, cache.blockCount());
      assertEquals(0, cache.stats().evictedBlockCount());
      assertEquals(1, cache.metrics().notAdmittedCount());
      assertEquals(0, cache.stats().failedInsertionCount(), "a declined block is not a failed insertion");
      assertEquals(IndexEntry.ABSENT, cache.index().peek(newcomer));
    }
  }

  @Test
  void aMoreFrequentBlockIsAdmittedAndDisplacesExactlyOneBlock() {
    try (BucketCache cache = fullOfReadBlocks(3)) {
      BlockKey newcomer = BlockKey.of("new", 0);
      read(cache, newcomer, 5);
      assertEquals(CacheResult.CACHED, put(cache, newcomer));
      assertNotEquals(IndexEntry.ABSENT, cache.index().peek(newcomer));
      assertEquals(SLOTS, cache.blockCount());
      assertEquals(1, cache.stats().evictedBlockCount());
      assertEquals(0, cache.metrics().notAdmittedCount());
    }
  }

  @Test
  void aVictimNeverReadAgainMakesRoomForAnyBlock() {
    try (BucketCache cache = fullOfReadBlocks(0)) {
      BlockKey newcomer = BlockKey.of("new", 0); // never read either: cache-on-write, prefetch
      assertEquals(CacheResult.CACHED, put(cache, newcomer));
      assertEquals(1, cache.stats().evictedBlockCount());
    }
  }

  /**
   * Fills the cache with half single blocks (missed {@code singleReads} times, then cached and never read) and half
   * multi blocks (frequency 2: a miss and a hit), admits a newcomer read 8 times, and returns how many single and
   * multi blocks are left.
   */
  private static int[] singlesAndMultisLeftAfterANewcomer(int singleReads) {
    try (BucketCache cache = cache(L2Policy.TINYLFU)) {
      int half = SLOTS / 2;
      for (int i = 0; i < half; i++) {
        BlockKey single = BlockKey.of("single", i);
        read(cache, single, singleReads);
        assertEquals(CacheResult.CACHED, put(cache, single));
        BlockKey multi = BlockKey.of("multi", i);
        read(cache, multi, 1);
        assertEquals(CacheResult.CACHED, put(cache, multi));
        read(cache, multi, 1);
      }
      BlockKey newcomer = BlockKey.of("new", 0);
      read(cache, newcomer, 8);
      assertEquals(CacheResult.CACHED, put(cache, newcomer));
      int[] left = new int[2];
      for (int i = 0; i < half; i++) {
        left[0] += cache.index().peek(BlockKey.of("single", i)) != IndexEntry.ABSENT ? 1 : 0;
        left[1] += cache.index().peek(BlockKey.of("multi", i)) != IndexEntry.ABSENT ? 1 : 0;
      }
      return left;
    }
  }

  @Test
  void theVictimIsTheColderOfASingleAndAMultiCandidateNotThePriorityOverItsShare() {
    // Single blocks hold half the bytes, twice their 25% share: by shares alone a single block would go.
    int[] left = singlesAndMultisLeftAfterANewcomer(5);
    assertEquals(SLOTS / 2, left[0], "no single block (frequency 5) went");
    assertEquals(SLOTS / 2 - 1, left[1], "a multi block (frequency 2, colder by 3) made room");
  }

  @Test
  void aMultiVictimMustBeColderByMoreThanTwoThanTheSingleCandidate() {
    int[] left = singlesAndMultisLeftAfterANewcomer(3);
    assertEquals(SLOTS / 2, left[1], "no multi block (frequency 2, within 2 of the single candidate's 3) went");
    assertEquals(SLOTS / 2 - 1, left[0], "a single block made room");
  }

  @Test
  void theHBasePolicyAdmitsEveryBlock() {
    try (BucketCache cache = cache(L2Policy.HBASE)) {
      for (int i = 0; i < SLOTS; i++) {
        BlockKey key = BlockKey.of("resident", i);
        put(cache, key);
        read(cache, key, 3);
      }
      assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("new", 0)));
      assertEquals(0, cache.metrics().notAdmittedCount());
    }
  }
}
