package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.L2Policy;
import dev.blockcache.bucket.index.IndexEntry;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pins the tinylfu admission window: a block admitted into a full cache enters the window (its index entry's window
 * bit) without a frequency test, eviction leaves window blocks alone, and a block leaving the window stays only if it
 * is used more than the main space's victim. The window's share is fixed here (lower and upper factor equal).
 */
public class WindowAdmissionTest {
  private static final int ITEM = 2048;
  private static final int SLOTS = 32;
  /** 4 of the 32 blocks. */
  private static final float WINDOW = 0.125f;
  private BucketCache cache;

  /**
   * Fills the cache with 32 residents read 3 times each. The last resident took the last free item, so it is in the
   * window: the window holds 1 block, its share 4.
   */
  @BeforeEach
  void fullOfBlocksReadThreeTimes() {
    cache = BucketCaches.create(BucketCacheConfig.builder("heap", (long) SLOTS * ITEM).bucketSizes(ITEM)
        .writerInline(true).evictionPolicy(L2Policy.TINYLFU).admissionWindow(WINDOW).admissionWindowMax(WINDOW)
        .build());
    for (int i = 0; i < SLOTS; i++) {
      BlockKey key = resident(i);
      assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, key));
      FrequencyAdmissionTest.read(cache, key, 3);
    }
    assertEquals(1, cache.index().windowSize());
    assertTrue(inWindow(resident(SLOTS - 1)));
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
      n += cached(resident(i)) ? 1 : 0;
    }
    return n;
  }

  private int newcomersLeft(int count) {
    int n = 0;
    for (int i = 0; i < count; i++) {
      n += cached(newcomer(i)) ? 1 : 0;
    }
    return n;
  }

  private boolean cached(BlockKey key) {
    return cache.index().peek(key) != IndexEntry.ABSENT;
  }

  private boolean inWindow(BlockKey key) {
    long entry = cache.index().peek(key);
    return entry != IndexEntry.ABSENT && IndexEntry.inWindow(entry);
  }

  @Test
  void aBlockReadAgainRightAfterItsFirstMissIsAHit() {
    BlockKey key = newcomer(0);
    FrequencyAdmissionTest.read(cache, key, 1); // the miss
    assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, key), "less frequent than every resident");
    assertTrue(inWindow(key), "admitted into a full cache: in the window");
    ByteBuf hit = cache.getBlock(key, ReadOptions.of(BlockCategory.DATA));
    assertNotNull(hit);
    hit.release();
    assertEquals(0, cache.metrics().notAdmittedCount());
  }

  @Test
  void blocksCachedWhileThereWasRoomAreOutsideTheWindow() {
    for (int i = 0; i < SLOTS - 1; i++) {
      assertFalse(inWindow(resident(i)), "resident " + i);
    }
  }

  @Test
  void belowItsShareTheWindowGrowsIntoMainVictimsNeverIntoItsOwnBlocks() {
    for (int i = 0; i < 3; i++) {
      assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, newcomer(i)));
    }
    // Three residents made room, though each newcomer (never read) is colder than any of them.
    for (int i = 0; i < 3; i++) {
      assertTrue(inWindow(newcomer(i)), "newcomer " + i);
    }
    assertEquals(SLOTS - 3, residentsLeft());
    assertTrue(cached(resident(SLOTS - 1)), "the window's resident was not a victim");
    assertEquals(4, cache.index().windowSize());
    assertEquals(SLOTS, cache.blockCount());
  }

  @Test
  void aBlockLeavingTheWindowGoesIfNoMoreFrequentThanTheMainVictim() {
    for (int i = 0; i < 3; i++) {
      FrequencyAdmissionTest.put(cache, newcomer(i));
    }
    assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, newcomer(3)));
    // The leaving block (the last resident, read 3 times, or a newcomer, never read) is no more frequent than the
    // main victim (3 reads): it leaves the cache, and no resident of the main space pays for the newcomer.
    int windowBlocksLeft = newcomersLeft(3) + (cached(resident(SLOTS - 1)) ? 1 : 0);
    assertEquals(3, windowBlocksLeft, "one of the window's four blocks left the cache");
    assertTrue(inWindow(newcomer(3)));
    assertEquals(SLOTS - 4, residentsLeft() - (cached(resident(SLOTS - 1)) ? 1 : 0), "main residents left");
    assertEquals(4, cache.index().windowSize());
    assertEquals(SLOTS, cache.blockCount());
  }

  @Test
  void aBlockLeavingTheWindowStaysIfMoreFrequentAndTheMainVictimGoes() {
    for (int i = 0; i < 3; i++) {
      FrequencyAdmissionTest.put(cache, newcomer(i));
      FrequencyAdmissionTest.read(cache, newcomer(i), 6); // hits while in the window: 6 > 3
    }
    FrequencyAdmissionTest.read(cache, resident(SLOTS - 1), 6); // the window's resident too
    assertEquals(CacheResult.CACHED, FrequencyAdmissionTest.put(cache, newcomer(3)));
    assertEquals(4, newcomersLeft(4), "every newcomer stays");
    assertTrue(cached(resident(SLOTS - 1)));
    assertEquals(SLOTS - 4, residentsLeft(), "a resident of the main space made room this time");
    assertEquals(4, cache.index().windowSize(), "one block left the window, one entered");
    assertEquals(SLOTS, cache.blockCount());
  }
}
