package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CachePriority;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.L2Policy;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.write.PendingWrite;
import dev.blockcache.bucket.write.QueueWait;
import dev.blockcache.bucket.write.SlotWriter;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
      BlockKey key = BlockKey.of("f", 0);
      assertEquals(CacheResult.CACHED, put(cache, key, 4000));
      BucketCaches.drain(cache);
      long entry = cache.index().peek(key);
      long offset = IndexEntry.offset(entry);
      long used = cache.allocator().stats().usedItemBytes();
      assertTrue(used > 0);

      ByteBuf first = cache.getBlock(key, DATA);
      ByteBuf second = cache.getBlock(key, DATA);
      assertEquals(1, first.refCnt());
      assertEquals(1, second.refCnt());
      assertEquals(2, cache.pins().pinCount(offset));

      assertTrue(cache.evictBlock(key));
      assertEquals(IndexEntry.ABSENT, cache.index().peek(key));
      assertTrue(cache.pins().isFreeDeferred(offset), "slot freed while two readers hold it");
      assertEquals(used, cache.allocator().stats().usedItemBytes());

      assertTrue(first.release());
      assertEquals(1, cache.pins().pinCount(offset));
      assertEquals(used, cache.allocator().stats().usedItemBytes());
      Blocks.verify(key, 4000, second);

      assertTrue(second.release());
      assertEquals(0, cache.pins().pinCount(offset));
      assertEquals(0, cache.allocator().stats().usedItemBytes(), "slot not returned after the last release");

      BlockKey other = BlockKey.of("g", 0);
      put(cache, other, 4000);
      BucketCaches.drain(cache);
      assertEquals(offset, IndexEntry.offset(cache.index().peek(other)), "the freed slot is reused");
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
      BucketCaches.drain(cache);
      long offset = IndexEntry.offset(cache.index().peek(key));
      ByteBuf view = cache.getBlock(key, DATA);
      try {
        assertTrue(view.isDirect());
        ByteBuf slot = cache.engine().segment(offset);
        int at = (int) (offset % cache.engine().segmentSize()) + slotHeader(key);
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
      BucketCaches.drain(cache);
      ByteBuf copy = cache.getBlock(key, DATA);
      try {
        assertFalse(copy.isDirect());
        assertEquals(0, cache.metrics().pinnedSlots());
        assertTrue(cache.evictBlock(key));
        assertEquals(0, cache.allocator().stats().usedItemBytes(), "a copy must not hold the slot");
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
      BucketCaches.drain(cache);
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
      BucketCaches.drain(cache);
      assertNull(cache.getBlock(key, DATA));
      assertEquals(0, cache.blockCount());
      assertEquals(0, cache.allocator().stats().usedItemBytes());
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
      BlockKey key = BlockKey.of("f", 0);
      put(cache, key, 100);
      PendingWrite w = cache.ramCache().get(key);
      int stored = BlockHeader.headerLength(key) + w.block().length();
      long offset = cache.allocator().allocate(stored);
      ByteBuf block = w.block().tryView();
      try {
        SlotWriter.writeInPlace(cache.engine(), key, w.block().category(), block, offset, stored);
      } finally {
        block.release();
      }
      assertTrue(w.publishIn(cache.index(), IndexEntry.pack(offset, stored, w.priority(), w.block().category())));

      assertEquals(1, cache.evictBlocksByFile("f"));
      assertEquals(IndexEntry.ABSENT, cache.index().peek(key));
      BucketCaches.drain(cache); // the queued block is no longer the one waiting for its key: the writer skips it
      assertNull(cache.getBlock(key, DATA));
      assertEquals(0, cache.blockCount());
      assertEquals(0, cache.allocator().stats().usedItemBytes());
    }
  }

  @Test
  void closeKeepsTheEngineUntilTheLastViewIsReleased() {
    BucketCache cache = BucketCaches.create(BucketCaches.config("offheap", 8L << 20).build());
    BlockKey key = BlockKey.of("f", 0);
    put(cache, key, 2000);
    BucketCaches.drain(cache);
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
      BucketCaches.drain(cache);
      for (int i = 0; i < 1024; i++) {
        put(cache, BlockKey.of("scan", i), size);
        BucketCaches.drain(cache);
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
      while (cache.metrics().allocator().freeBytes() >= cache.allocator().bucketCapacity()) {
        put(cache, BlockKey.of("small", i++), small);
        BucketCaches.drain(cache);
      }
      for (int j = 0; j < 4; j++) {
        put(cache, BlockKey.of("small", i++), small);
        BucketCaches.drain(cache);
      }
      BlockKey big = BlockKey.of("big", 0);
      assertEquals(CacheResult.CACHED, put(cache, big, 100 * 1024));
      BucketCaches.drain(cache);
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
    // HBase's policy: its size-class pass is what this pins (the default policy admits by frequency instead).
    BucketCacheConfig config = BucketCaches.config("heap", 4096).bucketSizes(256, 512).evictionPolicy(L2Policy.HBASE)
        .build();
    try (BucketCache cache = BucketCaches.create(config)) {
      assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("big", 0), 400)); // bucket 0 goes to the 512 class
      BucketCaches.drain(cache);
      for (int i = 0; i < 8; i++) { // bucket 1: the 256 class, full; 2560 of 4096 bytes used, below acceptFactor
        assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("small", i), 100));
        BucketCaches.drain(cache);
      }
      assertEquals(0, cache.stats().evictedBlockCount());
      assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("small", 8), 100));
      BucketCaches.drain(cache);
      assertEquals(1, cache.stats().evictedBlockCount(), "blocks evicted to make one 256-byte item free");
      assertEquals(9, cache.blockCount());
      assertEquals(512 + 8 * 256, cache.metrics().allocator().usedItemBytes());
    }
  }

  /** Re-caching a key that is in a slot is an access for the policy, as a get is: a SINGLE block becomes MULTI. */
  @Test
  void reCachingAPresentKeyCountsAsAnAccess() {
    try (BucketCache cache = BucketCaches.create(BucketCaches.config("offheap", 8L << 20).build())) {
      BlockKey key = BlockKey.of("f", 0);
      assertEquals(CacheResult.CACHED, put(cache, key, 1000));
      BucketCaches.drain(cache);
      assertEquals(CachePriority.SINGLE, IndexEntry.priority(cache.index().peek(key)));
      assertEquals(CacheResult.ALREADY_CACHED, put(cache, key, 1000));
      assertEquals(CachePriority.MULTI, IndexEntry.priority(cache.index().peek(key)));
    }
  }

  @Test
  void nullArgumentsAreRefusedByName() {
    try (BucketCache cache = BucketCaches.create(BucketCaches.config("offheap", 8L << 20).build())) {
      BlockKey key = BlockKey.of("f", 0);
      ByteBuf block = Blocks.payload(key, 10);
      try {
        assertEquals("key", assertThrows(NullPointerException.class,
            () -> cache.cacheBlock(null, block, CacheOptions.of(BlockCategory.DATA))).getMessage());
        assertEquals("block", assertThrows(NullPointerException.class,
            () -> cache.cacheBlock(key, null, CacheOptions.of(BlockCategory.DATA))).getMessage());
        assertEquals("options", assertThrows(NullPointerException.class,
            () -> cache.cacheBlock(key, block, null)).getMessage());
      } finally {
        block.release();
      }
      assertEquals("options", assertThrows(NullPointerException.class, () -> cache.getBlock(key, null)).getMessage());
      assertEquals("key", assertThrows(NullPointerException.class, () -> cache.getBlock(null, DATA)).getMessage());
      assertEquals("reader", assertThrows(NullPointerException.class, () -> cache.read(key, DATA, null)).getMessage());
      assertEquals("key", assertThrows(NullPointerException.class, () -> cache.evictBlock(null)).getMessage());
      assertEquals("file", assertThrows(NullPointerException.class, () -> cache.evictBlocksByFile(null)).getMessage());
      assertEquals("timeout", assertThrows(NullPointerException.class, () -> cache.awaitWritten(null)).getMessage());
    }
  }

  /** A block a full queue refuses is released by the cache: handOver took the caller's reference. */
  @Test
  void aHandOverRefusedByAFullQueueReleasesTheBuffer() {
    BucketCacheConfig config = BucketCaches.config("offheap", 8L << 20).writerThreads(1).writerQueueLength(1).build();
    try (BucketCache cache = BucketCaches.create(config)) { // not started: the one queue slot stays taken
      BlockKey first = BlockKey.of("f", 0);
      ByteBuf queued = Blocks.payload(first, 100);
      assertEquals(CacheResult.CACHED, cache.handOver(first, queued, CacheOptions.of(BlockCategory.DATA)));
      BlockKey second = BlockKey.of("f", 4096);
      ByteBuf refused = Blocks.payload(second, 100);
      assertEquals(CacheResult.QUEUE_FULL,
          cache.handOver(second, refused, CacheOptions.of(BlockCategory.DATA), QueueWait.NONE));
      assertEquals(0, refused.refCnt());
      assertEquals(1, queued.refCnt(), "the queued block's buffer is held until it is written");
      BucketCaches.drain(cache);
      assertEquals(0, queued.refCnt());
    }
  }

  /**
   * A cache from the public factory is ready: its writers run, so a burst far beyond the queues' room is written
   * without anyone draining. (Never started, the 5th block waited out the queue wait and was refused.)
   */
  @Test
  void aCacheFromThePublicFactoryWritesWithoutAStartCall() throws Exception {
    BucketCacheConfig config = BucketCaches.config("offheap", 8L << 20).writerThreads(1).writerQueueLength(4)
        .queueAdditionWaitTimeMs(10_000).build();
    try (BucketCache cache = BucketCache.create(config)) {
      for (int i = 0; i < 200; i++) {
        assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("f", i * 4096L), 1000), "block " + i);
      }
      assertTrue(cache.awaitWritten(Duration.ofSeconds(30)));
      assertEquals(200, cache.index().size());
      assertEquals(0, cache.ramCache().size());
    }
  }

  /**
   * The default path on a memory engine: a block is copied into a free slot before {@code cacheBlock} returns (no
   * RAM cache, no writer); once no slot is free without evicting, blocks are queued and the writers evict.
   */
  @Test
  void aMemoryEngineCopiesIntoAFreeSlotAndQueuesOnceEvictionIsNeeded() throws Exception {
    // HBase's policy admits every block, so each insert past the full mark takes the queued path.
    BucketCacheConfig config = BucketCaches.config("offheap", 8L << 20).queueAdditionWaitTimeMs(10_000)
        .evictionPolicy(L2Policy.HBASE).build();
    try (BucketCache cache = BucketCache.create(config)) {
      BlockKey first = BlockKey.of("f", 0);
      assertEquals(CacheResult.CACHED, put(cache, first, 4000));
      assertTrue(cache.index().peek(first) != IndexEntry.ABSENT, "not in its slot when cacheBlock returned");
      assertEquals(0, cache.ramCache().size());
      for (int i = 1; i < 3000; i++) {
        assertEquals(CacheResult.CACHED, put(cache, BlockKey.of("f", i * 4096L), 4000), "block " + i);
      }
      assertTrue(cache.awaitWritten(Duration.ofSeconds(30)));
      assertTrue(cache.stats().evictedBlockCount() > 0, "the writers made room");
      assertEquals(0, cache.stats().failedInsertionCount());
      BlockKey last = BlockKey.of("f", 2999 * 4096L);
      ByteBuf block = cache.getBlock(last, DATA);
      assertNotNull(block, "the last block was not cached");
      Blocks.verify(last, 4000, block);
      block.release();
    }
  }

  /**
   * {@code handOver} on a memory engine with a free slot: the block is in its slot and the caller's buffer released
   * before the call returns (one copy, no RAM cache); once no slot is free without evicting, the buffer itself waits
   * in the RAM cache for a writer and is released after its write.
   */
  @Test
  void aMemoryEngineHandOverCopiesIntoAFreeSlotAndReleasesAtOnce() throws Exception {
    BucketCacheConfig config = BucketCaches.config("offheap", 8L << 20).queueAdditionWaitTimeMs(10_000)
        .evictionPolicy(L2Policy.HBASE).build();
    try (BucketCache cache = BucketCache.create(config)) {
      BlockKey first = BlockKey.of("f", 0);
      ByteBuf source = Blocks.payload(first, 4000);
      assertEquals(CacheResult.CACHED, cache.handOver(first, source, CacheOptions.of(BlockCategory.DATA)));
      assertEquals(0, source.refCnt(), "the buffer was not released when handOver returned");
      assertTrue(cache.index().peek(first) != IndexEntry.ABSENT, "not in its slot when handOver returned");
      assertEquals(0, cache.ramCache().size());
      List<ByteBuf> sources = new ArrayList<>();
      for (int i = 1; i < 3000; i++) {
        BlockKey key = BlockKey.of("f", i * 4096L);
        ByteBuf next = Blocks.payload(key, 4000);
        sources.add(next);
        assertEquals(CacheResult.CACHED, cache.handOver(key, next, CacheOptions.of(BlockCategory.DATA)),
            "block " + i);
      }
      assertTrue(cache.awaitWritten(Duration.ofSeconds(30)));
      assertTrue(cache.stats().evictedBlockCount() > 0, "the writers made room");
      for (ByteBuf next : sources) {
        assertEquals(0, next.refCnt(), "a handed-over buffer was not released after its write");
      }
      BlockKey last = BlockKey.of("f", 2999 * 4096L);
      ByteBuf block = cache.getBlock(last, DATA);
      assertNotNull(block, "the last block was not cached");
      Blocks.verify(last, 4000, block);
      block.release();
    }
  }
}
