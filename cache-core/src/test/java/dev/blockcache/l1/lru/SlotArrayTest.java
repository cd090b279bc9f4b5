package dev.blockcache.l1.lru;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CachePriority;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.LruConfig;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The block array an {@link EntryTable} slot keeps beside its entry: present exactly for blocks that span their whole
 * array, gone with the entry, and never read in place of another block's bytes, however slots are reused.
 */
class SlotArrayTest {
  private static final int BLOCK = 1024;
  private static final CacheOptions DATA = CacheOptions.of(BlockCategory.DATA);
  private static final ReadOptions READ = ReadOptions.of(BlockCategory.DATA);

  /** {@code key}'s payload in a heap array after {@code header} other bytes: a slice, not the whole array. */
  private static ByteBuf slice(BlockKey key, int header) {
    ByteBuf source = Blocks.payload(key, BLOCK);
    byte[] array = new byte[header + BLOCK];
    source.getBytes(0, array, header, BLOCK);
    source.release();
    return Unpooled.wrappedBuffer(array).readerIndex(header);
  }

  private static LruEntry entry(BlockKey key, ByteBuf block) {
    try {
      return new LruEntry(key, HeapBlock.keepOrCopy(block, BlockCategory.DATA), CachePriority.SINGLE);
    } finally {
      block.release();
    }
  }

  private static byte[] slotArray(EntryTable table, BlockKey key) {
    EntryTable.Slots slots = table.slots();
    int slot = slots.find(key);
    assertTrue(slot >= 0, key + " not found");
    return slots.blockAt(slot);
  }

  private static int arraysHeld(EntryTable table) {
    EntryTable.Slots slots = table.slots();
    int held = 0;
    for (int i = 0; i < table.slotCount(); i++) {
      held += slots.blockAt(i) != null ? 1 : 0;
    }
    return held;
  }

  @Test
  void aSlotKeepsTheArrayOfABlockThatSpansItAndNoneForASlice() {
    EntryTable table = new EntryTable(16);
    BlockKey copied = BlockKey.of("f", 0);
    BlockKey sliced = BlockKey.of("f", BLOCK);
    LruEntry copy = entry(copied, Blocks.payload(copied, BLOCK));
    LruEntry kept = entry(sliced, slice(sliced, 33));
    assertNull(table.putIfAbsentLocked(copied, copy));
    assertNull(table.putIfAbsentLocked(sliced, kept));

    assertSame(copy.wholeArray(), slotArray(table, copied));
    assertTrue(copy.wholeArray() != null, "a copy spans its array");
    assertNull(slotArray(table, sliced), "a slice after a header has no whole array");
    assertEquals(1, arraysHeld(table));
  }

  @Test
  void anArrayThatIsNotTheEntrysOwnIsNeverReadInItsPlace() {
    BlockKey key = BlockKey.of("f", 0);
    LruEntry whole = entry(key, Blocks.payload(key, BLOCK));
    LruEntry sliced = entry(key, slice(key, 33));
    byte[] sameLength = new byte[BLOCK]; // what a reader racing a writer may load from a reused slot
    for (LruEntry e : List.of(whole, sliced)) {
      for (byte[] loaded : new byte[][] {sameLength, null, whole.wholeArray()}) {
        ByteBuf view = e.newView(loaded);
        try {
          Blocks.verify(key, BLOCK, view);
        } finally {
          view.release();
        }
        AtomicLong read = new AtomicLong();
        e.read(block -> {
          Blocks.verify(key, BLOCK, block);
          read.incrementAndGet();
        }, loaded);
        assertEquals(1, read.get());
      }
    }
  }

  @Test
  void removalsAndRebuildsLeaveNoArrayInATombstone() {
    EntryTable table = new EntryTable(16);
    List<LruEntry> entries = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      BlockKey key = BlockKey.of("f", (long) i * BLOCK);
      LruEntry e = entry(key, Blocks.payload(key, BLOCK));
      assertNull(table.putIfAbsentLocked(key, e));
      entries.add(e);
    }
    for (int i = 0; i < 500; i += 2) {
      assertTrue(table.removeLocked(entries.get(i)));
    }
    assertEquals(250, arraysHeld(table), "removed blocks must not stay reachable through their slots");
    for (int i = 1; i < 500; i += 2) {
      assertSame(entries.get(i).wholeArray(), slotArray(table, entries.get(i).key()));
    }
  }

  /**
   * Readers check every byte they get while a writer keeps replacing the same keys with blocks of the other shape
   * (copies spanning their arrays, slices after a header), so that a slot is emptied and refilled under the readers
   * and a reader may load an entry and an array of different generations.
   */
  @Test
  void readersGetOnlyTheirBlocksBytesWhileSlotsAreRefilledWithTheOtherShape() throws Exception {
    int keys = 64;
    try (LruBlockCache cache = new LruBlockCache(LruConfig.builder(1L << 26).build())) {
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicLong hits = new AtomicLong();
      List<Thread> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        int seed = r;
        Thread reader = new Thread(() -> {
          SplittableRandom random = new SplittableRandom(seed);
          try {
            while (!stop.get()) {
              BlockKey key = BlockKey.of("f", (long) random.nextInt(keys) * BLOCK);
              ByteBuf b = cache.getBlock(key, READ);
              if (b != null) {
                try {
                  Blocks.verify(key, BLOCK, b);
                } finally {
                  b.release();
                }
                hits.incrementAndGet();
              }
              cache.read(key, READ, block -> Blocks.verify(key, BLOCK, block));
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        }, "slot-reader-" + r);
        reader.start();
        readers.add(reader);
      }
      SplittableRandom random = new SplittableRandom(7);
      for (int round = 0; round < 40_000 && failure.get() == null; round++) {
        BlockKey key = BlockKey.of("f", (long) random.nextInt(keys) * BLOCK);
        cache.evictBlock(key);
        CacheResult result = (round & 1) == 0
            ? cache.handOver(key, slice(key, 1 + random.nextInt(64)), DATA)
            : cache.handOver(key, Blocks.payload(key, BLOCK), DATA);
        assertTrue(result == CacheResult.CACHED || result == CacheResult.ALREADY_CACHED, result.toString());
      }
      stop.set(true);
      for (Thread reader : readers) {
        reader.join();
      }
      if (failure.get() != null) {
        throw new AssertionError("a reader failed", failure.get());
      }
      assertTrue(hits.get() > 0, "the readers never hit");
    }
  }
}
