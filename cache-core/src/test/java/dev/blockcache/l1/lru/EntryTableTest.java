package dev.blockcache.l1.lru;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.buffer.HeapBlock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link EntryTable}: the same answers as a {@link HashMap} under random inserts and removals (tombstones, reuse,
 * rebuilds and growth included), and lock-free readers that never miss a key that stays in the table while a writer
 * churns other keys through it.
 */
class EntryTableTest {
  private static final String[] FILES = {"a", "bb", "ccc", "dddd"};

  private static LruEntry entry(BlockKey key) {
    ByteBuf bytes = Unpooled.wrappedBuffer(new byte[] {(byte) key.offset()});
    try {
      return new LruEntry(key, HeapBlock.copyOf(bytes, BlockCategory.DATA), CachePriority.SINGLE);
    } finally {
      bytes.release();
    }
  }

  private static BlockKey key(int i) {
    // a new String per key, so that equal keys are found by value, not by the name's identity
    return BlockKey.of(new String(FILES[i & 3]), (long) (i >>> 2) * 4096);
  }

  @Test
  void answersAsAHashMapDoesUnderRandomInsertsAndRemovals() {
    EntryTable table = new EntryTable(4);
    Map<BlockKey, LruEntry> model = new HashMap<>();
    SplittableRandom random = new SplittableRandom(42);
    int initialSlots = table.slotCount();
    for (int op = 0; op < 200_000; op++) {
      int k = random.nextInt(3_000);
      BlockKey key = key(k);
      switch (random.nextInt(4)) {
        case 0, 1 -> {
          LruEntry e = entry(key);
          LruEntry present = table.putIfAbsentLocked(e.key(), e);
          assertSame(model.get(key), present, "putIfAbsent " + key);
          model.putIfAbsent(key, e);
        }
        case 2 -> assertSame(model.remove(key), table.removeLocked(key), "remove " + key);
        default -> {
          LruEntry expected = model.get(key);
          if (expected != null) {
            assertTrue(table.removeLocked(expected));
            assertFalse(table.removeLocked(expected), "a second removal of " + key);
            model.remove(key);
          }
        }
      }
      assertSame(model.get(key), table.get(key(k)), "get " + key);
      assertEquals(model.size(), table.size());
    }
    for (Map.Entry<BlockKey, LruEntry> e : model.entrySet()) {
      assertSame(e.getValue(), table.get(e.getKey()));
    }
    List<LruEntry> seen = new ArrayList<>();
    table.forEachLocked(seen::add);
    assertEquals(model.size(), seen.size());
    assertTrue(table.slotCount() > initialSlots, "grew from " + initialSlots);
    assertTrue(table.slotCount() <= 8_192, "3,000 keys at most, yet " + table.slotCount() + " slots");
  }

  @Test
  void readersNeverMissAKeptKeyWhileAWriterChurnsOthers() throws Exception {
    EntryTable table = new EntryTable(16);
    Object lock = new Object();
    int kept = 2_000;
    LruEntry[] keptEntries = new LruEntry[kept];
    synchronized (lock) {
      for (int i = 0; i < kept; i++) {
        keptEntries[i] = entry(key(i));
        assertNull(table.putIfAbsentLocked(keptEntries[i].key(), keptEntries[i]));
      }
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong lookups = new AtomicLong();
    CountDownLatch started = new CountDownLatch(2);
    List<Thread> readers = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      int seed = r;
      Thread t = new Thread(() -> {
        SplittableRandom random = new SplittableRandom(seed);
        started.countDown();
        long n = 0;
        try {
          while (!stop.get()) {
            int i = random.nextInt(kept);
            LruEntry found = table.get(key(i));
            if (found != keptEntries[i]) {
              throw new AssertionError("key " + i + " found as " + (found == null ? "absent" : "another entry") + " after "
                  + n + " lookups");
            }
            n++;
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        } finally {
          lookups.addAndGet(n);
        }
      });
      t.start();
      readers.add(t);
    }
    started.await();
    // Churn: insert and remove keys that are not kept, so that tombstones pile up and force rebuilds and growth.
    int slotsBefore = table.slotCount();
    SplittableRandom random = new SplittableRandom(7);
    List<LruEntry> churn = new ArrayList<>();
    for (int round = 0; round < 300_000 && failure.get() == null; round++) {
      synchronized (lock) {
        if (churn.size() < 20_000 && (churn.isEmpty() || random.nextInt(3) > 0)) {
          LruEntry e = entry(key(kept + random.nextInt(1 << 20)));
          if (table.putIfAbsentLocked(e.key(), e) == null) {
            churn.add(e);
          }
        } else {
          LruEntry e = churn.remove(random.nextInt(churn.size()));
          assertTrue(table.removeLocked(e));
        }
      }
    }
    stop.set(true);
    for (Thread t : readers) {
      t.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertTrue(lookups.get() > 0);
    assertTrue(table.slotCount() > slotsBefore, "the churn grew the table");
    assertEquals(kept + churn.size(), table.size());
  }
}
