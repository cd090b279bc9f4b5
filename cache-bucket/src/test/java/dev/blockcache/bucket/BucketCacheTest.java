package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.write.PendingWrite;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

/** L2-specific behaviour: slot pinning through the entry lifecycle, zero-copy vs copy reads, queues, close. */
class BucketCacheTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);

  private static CacheResult put(BucketCache cache, BlockKey key, int length, CacheOptions options) {
    ByteBuf source = Blocks.payload(key, length);
    try {
      return cache.cacheBlock(key, source, options);
    } finally {
      source.release();
    }
  }

  private static CacheResult put(BucketCache cache, BlockKey key, int length) {
    return put(cache, key, length, CacheOptions.of(BlockCategory.DATA));
  }

  @Test
  void refCountsAndPinsAtEveryStepOfCacheGetEvictReleaseReuse() {
    try (BucketCache cache = BucketCaches.create(BucketCaches.config("offheap", 8L << 20).build())) {
      BucketCacheParts parts = cache.parts();
      BlockKey key = BlockKey.of("f", 0);
      assertEquals(CacheResult.CACHED, put(cache, key, 4000));
      cache.drainWriters();
      long entry = parts.index.peek(key);
      long offset = IndexEntry.offset(entry);
      long used = parts.allocator.stats().usedItemBytes();
      assertTrue(used > 0);

      ByteBuf first = cache.getBlock(key, DATA);
      ByteBuf second = cache.getBlock(key, DATA);
      assertEquals(1, first.refCnt());
      assertEquals(1, second.refCnt());
      assertEquals(2, parts.pins.pinCount(offset));

      assertTrue(cache.evictBlock(key));
      assertEquals(IndexEntry.ABSENT, parts.index.peek(key));
      assertTrue(parts.pins.isFreeDeferred(offset), "slot freed while two readers hold it");
      assertEquals(used, parts.allocator.stats().usedItemBytes());

      assertTrue(first.release());
      assertEquals(1, parts.pins.pinCount(offset));
      assertEquals(used, parts.allocator.stats().usedItemBytes());
      Blocks.verify(key, 4000, second);

      assertTrue(second.release());
      assertEquals(0, parts.pins.pinCount(offset));
      assertEquals(0, parts.allocator.stats().usedItemBytes(), "slot not returned after the last release");

      BlockKey other = BlockKey.of("g", 0);
      put(cache, other, 4000);
      cache.drainWriters();
      assertEquals(offset, IndexEntry.offset(parts.index.peek(other)), "the freed slot is reused");
      ByteBuf reused = cache.getBlock(other, DATA);
      Blocks.verify(other, 4000, reused);
      reused.release();
    }
  }

  @Test
  void getOnAMemoryEngineIsAViewOfTheSlotNotACopy() {
    try (BucketCache cache = BucketCaches.create(BucketCaches.config("offheap", 8L << 20).build())) {
      BlockKey key = BlockKey.of("f", 0);
      put(cache, key, 1000);
      cache.drainWriters();
      long offset = IndexEntry.offset(cache.parts().index.peek(key));
      ByteBuf view = cache.getBlock(key, DATA);
      try {
        assertTrue(view.isDirect());
        ByteBuf slot = cache.parts().engine.segment(offset);
        int at = (int) (offset % cache.parts().engine.segmentSize()) + (4000 > 0 ? slotHeader(key) : 0);
        byte before = view.getByte(0);
        slot.setByte(at, before + 1);
        assertEquals((byte) (before + 1), view.getByte(0), "the view did not see the slot's bytes");
        slot.setByte(at, before);
      } finally {
        view.release();
      }
    }
  }

  private static int slotHeader(BlockKey key) {
    return dev.blockcache.bucket.format.BlockHeader.headerLength(key);
  }

  @Test
  void copyOnReadReturnsAHeapCopyAndPinsNothing() {
    try (BucketCache cache = BucketCaches.create(
        BucketCaches.config("offheap", 8L << 20).copyOnRead(true).build())) {
      BlockKey key = BlockKey.of("f", 0);
      put(cache, key, 3000);
      cache.drainWriters();
      ByteBuf copy = cache.getBlock(key, DATA);
      try {
        assertFalse(copy.isDirect());
        assertEquals(0, cache.metrics().pinnedSlots());
        assertTrue(cache.evictBlock(key));
        assertEquals(0, cache.parts().allocator.stats().usedItemBytes(), "a copy must not hold the slot");
        Blocks.verify(key, 3000, copy);
      } finally {
        copy.release();
      }
    }
  }

  @Test
  void blocksWaitingForAWriterAreReadableAndAFullQueueIsCounted() {
    try (BucketCache cache = BucketCaches.create(
        BucketCaches.config("heap", 8L << 20).writerThreads(1).writerQueueLength(2).build())) {
      assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("f", 0), 100));
      assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("f", 1), 100));
      assertEquals(CacheResult.QUEUE_FULL, put(cache, BlockKey.of("f", 2), 100));
      assertEquals(1, cache.stats().failedInsertionCount());
      assertEquals(1, cache.metrics().queueFullCount());
      assertEquals(2, cache.metrics().writerQueueDepth());
      ByteBuf waiting = cache.getBlock(BlockKey.of("f", 1), DATA);
      assertNotNull(waiting);
      waiting.release();
      cache.drainWriters();
      assertEquals(0, cache.metrics().writerQueueDepth());
      assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("f", 2), 100));
    }
  }

  @Test
  void evictingABlockThatWaitsForItsWriterDropsIt() {
    try (BucketCache cache = BucketCaches.create(BucketCaches.config("heap", 8L << 20).build())) {
      BlockKey key = BlockKey.of("f", 0);
      put(cache, key, 100);
      assertTrue(cache.evictBlock(key));
      cache.drainWriters();
      assertNull(cache.getBlock(key, DATA));
      assertEquals(0, cache.blockCount());
      assertEquals(0, cache.parts().allocator.stats().usedItemBytes());
    }
  }

  /**
   * The writer's state between publishing a block and taking it out of the RAM cache, set up by hand: the block is
   * both waiting and indexed. {@code evictBlocksByFile} counts it once (it counted it twice, as waiting and as
   * indexed), removes the entry and frees the slot; the writer, finding its block gone, leaves the index alone.
   */
  @Test
  void evictBlocksByFileCountsABlockPublishedButStillWaitingOnce() throws Exception {
    try (BucketCache cache = BucketCaches.create(BucketCaches.config("heap", 8L << 20).build())) {
      BucketCacheParts parts = cache.parts();
      BlockKey key = BlockKey.of("f", 0);
      put(cache, key, 100);
      PendingWrite w = parts.ramCache.get(key);
      int stored = BlockHeader.headerLength(key) + w.block().length();
      long offset = parts.allocator.allocate(stored);
      ByteBuf block = w.block().newView();
      try {
        SlotWriter.writeInPlace(parts.engine, key, w.block().category(), block, offset, stored);
      } finally {
        block.release();
      }
      assertTrue(w.publishIn(parts.index, IndexEntry.pack(offset, stored, w.priority(), w.block().category())));

      assertEquals(1, cache.evictBlocksByFile("f"));
      assertEquals(IndexEntry.ABSENT, parts.index.peek(key));
      cache.drainWriters(); // the queued block is no longer the one waiting for its key: the writer skips it
      assertNull(cache.getBlock(key, DATA));
      assertEquals(0, cache.blockCount());
      assertEquals(0, parts.allocator.stats().usedItemBytes());
    }
  }

  @Test
  void closeKeepsTheEngineUntilTheLastViewIsReleased() {
    BucketCache cache = BucketCaches.create(BucketCaches.config("offheap", 8L << 20).build());
    BlockKey key = BlockKey.of("f", 0);
    put(cache, key, 2000);
    cache.drainWriters();
    ByteBuf held = cache.getBlock(key, DATA);
    cache.close();
    assertFalse(cache.engineReleased());
    Blocks.verify(key, 2000, held);
    held.release();
    assertTrue(cache.engineReleased());
  }

  @Test
  void inMemoryBlocksOutliveSingleAccessBlocksUnderPressure() {
    try (BucketCache cache = BucketCaches.create(BucketCaches.config("heap", 8L << 20).build())) {
      int size = 16 * 1024;
      for (int i = 0; i < 64; i++) {
        put(cache, BlockKey.of("mem", i), size, CacheOptions.inMemory(BlockCategory.DATA));
      }
      cache.drainWriters();
      for (int i = 0; i < 1024; i++) {
        put(cache, BlockKey.of("scan", i), size);
        cache.drainWriters();
      }
      int memoryLeft = 0;
      for (int i = 0; i < 64; i++) {
        ByteBuf b = cache.getBlock(BlockKey.of("mem", i), DATA);
        if (b != null) {
          memoryLeft++;
          b.release();
        }
      }
      assertEquals(64, memoryLeft, "in-memory blocks evicted by a scan: " + cache.stats());
      assertTrue(cache.stats().evictedBlockCount() > 0);
    }
  }

  @Test
  void aStarvedSizeClassGetsRoomByEvictingItsOwnClass() {
    try (BucketCache cache = BucketCaches.create(BucketCaches.config("heap", 8L << 20).build())) {
      int small = 4 * 1024;
      int i = 0;
      while (cache.metrics().allocator().freeBytes() >= cache.parts().allocator.bucketCapacity()) {
        put(cache, BlockKey.of("small", i++), small);
        cache.drainWriters();
      }
      for (int j = 0; j < 4; j++) {
        put(cache, BlockKey.of("small", i++), small);
        cache.drainWriters();
      }
      BlockKey big = BlockKey.of("big", 0);
      assertEquals(CacheResult.CACHED, put(cache, big, 100 * 1024));
      cache.drainWriters();
      ByteBuf b = cache.getBlock(big, DATA);
      assertNotNull(b, "no room made for a block of an empty size class: " + cache.metrics().allocator());
      b.release();
    }
  }

  /**
   * The size-class pass frees items, not bytes: blocks much smaller than their item size must not make it evict more
   * blocks than the items it asked for (one here: ceil(8 used items x extraFreeFactor 0.10)).
   */
  @Test
  void theSizeClassPassEvictsItemsNotBytes() {
    BucketCacheConfig config = BucketCaches.config("heap", 4096).bucketSizes(256, 512).build();
    try (BucketCache cache = BucketCaches.create(config)) {
      assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("big", 0), 400)); // bucket 0 goes to the 512 class
      cache.drainWriters();
      for (int i = 0; i < 8; i++) { // bucket 1: the 256 class, full; 2560 of 4096 bytes used, below acceptFactor
        assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("small", i), 100));
        cache.drainWriters();
      }
      assertEquals(0, cache.stats().evictedBlockCount());
      assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("small", 8), 100));
      cache.drainWriters();
      assertEquals(1, cache.stats().evictedBlockCount(), "blocks evicted to make one 256-byte item free");
      assertEquals(9, cache.blockCount());
      assertEquals(512 + 8 * 256, cache.metrics().allocator().usedItemBytes());
    }
  }
}
