package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.index.IndexEntry;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pins the tinylfu admission window: a new block enters a full cache without a frequency test, eviction leaves window
 * blocks alone, and a block leaving the window stays only if it is used more than the main space's victim.
 */
class WindowAdmissionTest {
  private static final int ITEM = 2048;
  private static final int SLOTS = 32;
  /** 4 of the 32 blocks. */
  private static final float WINDOW = 0.125f;
  private BucketCache cache;

  @BeforeEach
  void fullOfBlocksReadThreeTimes() {
    cache = BucketCaches.create(BucketCacheConfig.builder("heap", (long) SLOTS * ITEM).bucketSizes(ITEM)
        .writerInline(true).evictionPolicy(L2Policy.TINYLFU).admissionWindow(WINDOW).build());
    for (int i = 0; i < SLOTS; i++) {
      BlockKey key = resident(i);
      assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, key));
      FrequencyAdmissionTest.read(cache, key, 3);
    }
  }

  @AfterEach
  void close() {
    cache.close();
  }

  private static BlockKey resident(int i) {
    return BlockKey.of("resident", i);
  }

  private static BlockKey newcomer(int i) {
    return BlockKey.of("new", i);
  }

  private int residentsLeft() {
    int n = 0;
    for (int i = 0; i < SLOTS; i++) {
      n += cache.index().peek(resident(i)) != IndexEntry.ABSENT ? 1 : 0;
    }
    return n;
  }

  private boolean cached(BlockKey key) {
    return cache.index().peek(key) != IndexEntry.ABSENT;
  }

  @Test
  void aBlockReadAgainRightAfterItsFirstMissIsAHit() {
    BlockKey key = newcomer(0);
    FrequencyAdmissionTest.read(cache, key, 1); // the miss
    assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, key), "less frequent than every resident");
    ByteBuf hit = cache.getBlock(key, ReadOptions.of(BlockCategory.DATA));
    assertNotNull(hit);
    hit.release();
    assertEquals(0, cache.metrics().notAdmittedCount());
  }

  @Test
  void belowItsShareTheWindowGrowsIntoMainVictimsNeverIntoItsOwnBlocks() {
    for (int i = 0; i < 4; i++) {
      assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, newcomer(i)));
    }
    // Four residents made room, though each newcomer (never read) is colder than any of them.
    for (int i = 0; i < 4; i++) {
      assertNotEquals(IndexEntry.ABSENT, cache.index().peek(newcomer(i)), "newcomer " + i);
    }
    assertEquals(SLOTS - 4, residentsLeft());
    assertEquals(SLOTS, cache.blockCount());
  }

  @Test
  void aBlockLeavingTheWindowGoesIfNoMoreFrequentThanTheMainVictim() {
    for (int i = 0; i < 4; i++) {
      FrequencyAdmissionTest.put(cache, newcomer(i));
    }
    assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, newcomer(4)));
    assertEquals(false, cached(newcomer(0)), "the oldest window block, read never, leaves the cache");
    for (int i = 1; i <= 4; i++) {
      assertEquals(true, cached(newcomer(i)), "newcomer " + i);
    }
    assertEquals(SLOTS - 4, residentsLeft(), "no resident paid for it");
    assertEquals(SLOTS, cache.blockCount());
  }

  @Test
  void aBlockLeavingTheWindowStaysIfMoreFrequentAndTheMainVictimGoes() {
    for (int i = 0; i < 4; i++) {
      FrequencyAdmissionTest.put(cache, newcomer(i));
    }
    FrequencyAdmissionTest.read(cache, newcomer(0), 6); // hits while in the window: 6 > 3
    assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, newcomer(4)));
    for (int i = 0; i <= 4; i++) {
      assertEquals(true, cached(newcomer(i)), "newcomer " + i);
    }
    assertEquals(SLOTS - 5, residentsLeft(), "a resident made room this time");
    assertEquals(SLOTS, cache.blockCount());
  }
}
