package dev.blockcache.bucket.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.config.BucketCacheConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class BucketAllocatorTest {
  private static final int K = 1024;
  /** Three classes; bucket = 4 * 4 KiB = 16 KiB: 16 items of 1 KiB, 8 of 2 KiB, 4 of 4 KiB. */
  private static final int[] SMALL = {K, 2 * K, 4 * K};

  /** The smallest class whose item holds {@code length}, by scanning: what {@code sizeClassOf} must return. */
  private static int scannedClass(int[] sizes, int length) {
    for (int c = 0; c < sizes.length; c++) {
      if (length <= sizes[c]) {
        return length > 0 ? c : -1;
      }
    }
    return -1;
  }

  @Test
  void sizeClassOfAgreesWithAScanForEveryLength() {
    int[][] configs = {SMALL, BucketCacheConfig.defaultBucketSizes(), {256}, {512, 768, 1024, 64 * K}};
    for (int[] sizes : configs) {
      BucketAllocator a = new BucketAllocator(4L * sizes[sizes.length - 1] * 2, sizes);
      for (int length = -1; length <= a.maxItemSize() + 300; length++) {
        assertEquals(scannedClass(sizes, length), a.sizeClassOf(length), "length " + length);
      }
    }
  }

  @Test
  void sizeClassOfFallsBackToASearchForVeryLargeItems() {
    int largest = 32 * 1024 * K; // 128 Ki units of 256 bytes: beyond the lookup table
    int[] sizes = {4 * K, 64 * K, largest};
    BucketAllocator a = new BucketAllocator(4L * largest, sizes);
    for (int length : new int[] {1, 4 * K, 4 * K + 1, 64 * K, 64 * K + 1, largest - 1, largest, largest + 1, 0}) {
      assertEquals(scannedClass(sizes, length), a.sizeClassOf(length), "length " + length);
    }
  }

  @Test
  void geometryFollowsHBaseWithBucketsSizedToLeaveLittleUnused() {
    // HBase's 16 KiB buckets would leave 4 KiB of 100 KiB unused; 20 KiB buckets (no tail for these sizes) fill it.
    BucketAllocator a = new BucketAllocator(100 * K, SMALL);
    assertEquals(20 * K, a.bucketCapacity());
    assertEquals(100 * K, a.capacity());
    assertEquals(5, a.bucketCount());
    assertEquals(100 * K, ItemSizes.usableCapacity(100 * K, SMALL));
    assertEquals(16 * K, new BucketAllocator(96 * K, SMALL).bucketCapacity());
    assertEquals(4 * K, a.maxItemSize());
    assertEquals(0, a.sizeClassOf(1));
    assertEquals(0, a.sizeClassOf(K));
    assertEquals(1, a.sizeClassOf(K + 1));
    assertEquals(2, a.sizeClassOf(4 * K));
    assertEquals(-1, a.sizeClassOf(4 * K + 1));
    assertEquals(2 * K, a.itemSize(1));

    BucketAllocator hbase = new BucketAllocator(1L << 30, BucketCacheConfig.defaultBucketSizes());
    int bucket = 4 * 513 * K; // no larger bucket gives every class as many items in 1 GiB: see ItemSizesTest
    assertEquals(bucket, hbase.bucketCapacity());
    assertEquals((1L << 30) / bucket * bucket, hbase.capacity());
  }

  @Test
  void rejectsBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> new BucketAllocator(16 * K - 1, SMALL));
    assertThrows(IllegalArgumentException.class, () -> new BucketAllocator(1 << 20, new int[] {1000}));
    assertThrows(IllegalArgumentException.class, () -> new BucketAllocator(1 << 20, new int[] {2 * K, K}));
    assertThrows(IllegalArgumentException.class, () -> new BucketAllocator(1 << 20, new int[0]));
    BucketAllocator a = new BucketAllocator(16 * K, SMALL);
    assertThrows(IllegalArgumentException.class, () -> a.allocate(0));
    assertThrows(IllegalArgumentException.class, () -> a.allocate(-5));
    assertThrows(IllegalArgumentException.class, () -> a.allocate(4 * K + 1));
  }

  @Test
  void itemsAreAlignedInsideTheirBucketAndRoundTrip() {
    BucketAllocator a = new BucketAllocator(64 * K, SMALL);
    long o1 = a.allocate(1500);
    assertEquals(1, a.sizeClassAt(o1));
    assertEquals(2 * K, a.itemSizeAt(o1));
    assertEquals(0, o1 % a.bucketCapacity() % (2 * K));
    assertTrue(a.isAllocated(o1));
    AllocatorStats s = a.stats();
    assertEquals(1, s.usedItems());
    a.free(o1, 1500);
    assertFalse(a.isAllocated(o1));
    assertEquals(0, a.stats().usedItems());
    assertEquals(-1, a.sizeClassAt(o1), "an emptied bucket is unassigned");
    assertEquals(0, a.itemSizeAt(o1));
  }

  @Test
  void exhaustionReturnsMinusOneAndAFreeMakesRoom() {
    BucketAllocator a = new BucketAllocator(32 * K, SMALL); // two buckets
    List<Long> big = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      long o = a.allocate(4 * K);
      assertNotEquals(-1, o);
      big.add(o);
    }
    assertEquals(-1, a.allocate(4 * K));
    assertEquals(-1, a.allocate(1), "no bucket left for another class either");
    a.free(big.get(3), 4 * K);
    assertEquals(big.get(3), a.allocate(3 * K));
  }

  @Test
  void randomWorkloadNeverOverlapsAndStaysInBounds() {
    int[] sizes = BucketSizes.fine(64 * K);
    BucketAllocator a = new BucketAllocator(8L << 20, sizes);
    TreeMap<Long, Integer> live = new TreeMap<>(); // offset -> length
    SplittableRandom r = new SplittableRandom(7);
    long blockBytes = 0;
    for (int step = 0; step < 20_000; step++) {
      if (!live.isEmpty() && (r.nextInt(3) == 0 || step % 997 == 0)) {
        // free a random live item
        Map.Entry<Long, Integer> e = live.ceilingEntry(r.nextLong(a.capacity()));
        if (e == null) {
          e = live.firstEntry();
        }
        a.free(e.getKey(), e.getValue());
        live.remove(e.getKey());
        blockBytes -= e.getValue();
        continue;
      }
      int length = 1 + r.nextInt(a.maxItemSize());
      long o = a.allocate(length);
      if (o < 0) {
        continue;
      }
      int item = a.itemSizeAt(o);
      assertTrue(item >= length, "item " + item + " for " + length);
      assertEquals(a.itemSize(a.sizeClassOf(length)), item, "smallest fitting class");
      assertTrue(o >= 0 && o + item <= a.capacity(), "in bounds: " + o);
      long inBucket = o % a.bucketCapacity();
      assertEquals(0, inBucket % item, "aligned to the item size inside the bucket");
      assertTrue(inBucket + item <= a.bucketCapacity(), "inside one bucket");
      Map.Entry<Long, Integer> below = live.floorEntry(o);
      if (below != null) {
        assertTrue(below.getKey() + a.itemSizeAt(below.getKey()) <= o, "overlaps the item below");
      }
      Long above = live.ceilingKey(o);
      if (above != null) {
        assertTrue(o + item <= above, "overlaps the item above");
      }
      live.put(o, length);
      blockBytes += length;
    }
    AllocatorStats s = a.stats();
    assertEquals(live.size(), s.usedItems());
    assertEquals(blockBytes, s.blockBytes());
    for (Map.Entry<Long, Integer> e : live.entrySet()) {
      a.free(e.getKey(), e.getValue());
    }
    s = a.stats();
    assertEquals(0, s.usedItemBytes());
    assertEquals(a.capacity(), s.freeBytes());
    s.sizeClasses().forEach(c -> assertEquals(0, c.buckets(), "every bucket unassigned again: " + c));
  }

  @Test
  void anEmptiedBucketMigratesToAnotherClass() {
    BucketAllocator a = new BucketAllocator(16 * K, SMALL); // exactly one bucket
    long[] small = new long[16];
    for (int i = 0; i < 16; i++) {
      small[i] = a.allocate(K);
    }
    assertEquals(-1, a.allocate(4 * K), "the only bucket belongs to the 1 KiB class");
    for (int i = 0; i < 15; i++) {
      a.free(small[i], K);
    }
    assertEquals(-1, a.allocate(4 * K), "one item still holds the bucket");
    assertEquals(0, a.sizeClassAt(0));
    a.free(small[15], K);
    long big = a.allocate(4 * K);
    assertEquals(0, big);
    assertEquals(2, a.sizeClassAt(big));
    assertEquals(1, a.stats().sizeClass(2).buckets());
    assertEquals(0, a.stats().sizeClass(0).buckets());
    assertEquals(3, a.stats().sizeClass(2).freeItems());
  }

  @Test
  void doubleFreeAndBadOffsetsNameTheOffset() {
    BucketAllocator a = new BucketAllocator(32 * K, SMALL);
    long o = a.allocate(2 * K);
    long other = a.allocate(2 * K); // keeps the bucket assigned after o is freed
    a.free(o, 2 * K);
    IllegalStateException twice = assertThrows(IllegalStateException.class, () -> a.free(o, 2 * K));
    assertTrue(twice.getMessage().contains(Long.toString(o)), twice.getMessage());
    IllegalStateException mid = assertThrows(IllegalStateException.class, () -> a.free(other + 256, 2 * K));
    assertTrue(mid.getMessage().contains(Long.toString(other + 256)), mid.getMessage());
    long unassigned = a.bucketCapacity();
    IllegalStateException empty = assertThrows(IllegalStateException.class, () -> a.free(unassigned, K));
    assertTrue(empty.getMessage().contains(Long.toString(unassigned)), empty.getMessage());
    assertThrows(IllegalStateException.class, () -> a.free(-1, K));
    assertThrows(IllegalStateException.class, () -> a.free(a.capacity(), K));
    assertThrows(IllegalArgumentException.class, () -> a.free(other, K), "length of another class");
    a.free(other, 2 * K);
    assertEquals(0, a.stats().usedItems());
  }

  @Test
  void bucketTailBeyondTheLastItemIsNotAnItem() {
    // bucket = 4 * 3 KiB = 12 KiB (no bucket up to 15 KiB leaves less unused): four 2.75 KiB items (11 KiB) and a
    // 1 KiB tail that is never used.
    int[] sizes = {2816, 3 * K};
    BucketAllocator a = new BucketAllocator(12 * K, sizes);
    assertEquals(12 * K, a.bucketCapacity());
    for (int i = 0; i < 5; i++) {
      assertEquals(i == 4 ? -1 : i * 2816L, a.allocate(2816));
    }
    assertThrows(IllegalStateException.class, () -> a.free(4 * 2816, 2816));
    assertEquals(12 * K - 4 * 2816, a.stats().freeBytes());
    assertEquals(0, a.stats().sizeClass(0).freeItems());
  }

  @Test
  void reserveRebuildsTheSameStateAsAllocate() {
    int[] sizes = BucketSizes.fine(64 * K);
    BucketAllocator original = new BucketAllocator(4L << 20, sizes);
    SplittableRandom r = new SplittableRandom(11);
    TreeMap<Long, Integer> live = new TreeMap<>();
    for (int i = 0; i < 200; i++) {
      int length = 1 + r.nextInt(64 * K);
      long o = original.allocate(length);
      if (o >= 0) {
        live.put(o, length);
      }
    }
    BucketAllocator restored = new BucketAllocator(4L << 20, sizes);
    live.forEach(restored::reserve);
    assertEquals(original.stats().toString(), restored.stats().toString());
    Map.Entry<Long, Integer> first = live.firstEntry();
    assertThrows(IllegalStateException.class, () -> restored.reserve(first.getKey(), first.getValue()));
    int otherClass = first.getValue() > 8 * K ? 100 : 60 * K;
    assertThrows(IllegalStateException.class, () -> restored.reserve(first.getKey(), otherClass));
    // Both now allocate the same next offsets (no frees happened: one partial bucket per class, same free list).
    for (int i = 0; i < 50; i++) {
      int length = 1 + r.nextInt(64 * K);
      assertEquals(original.allocate(length), restored.allocate(length));
    }
    live.forEach(restored::free);
    live.forEach(original::free);
    assertEquals(original.stats().toString(), restored.stats().toString());
  }

  @Test
  void statsArithmetic() {
    BucketAllocator a = new BucketAllocator(64 * K, SMALL); // 4 buckets
    a.allocate(1000);
    a.allocate(1500);
    a.allocate(1500);
    a.allocate(4000);
    AllocatorStats s = a.stats();
    assertEquals(64 * K, s.capacity());
    assertEquals(1000 + 1500 + 1500 + 4000, s.blockBytes());
    assertEquals(K + 2 * 2 * K + 4 * K, s.usedItemBytes());
    assertEquals(s.usedItemBytes() - s.blockBytes(), s.wastedBytes());
    assertEquals(s.capacity() - s.usedItemBytes(), s.freeBytes());
    assertEquals((double) s.blockBytes() / s.capacity(), s.utilisation(), 1e-12);
    assertEquals(K, s.sizeClass(0).itemSize());
    assertEquals(1, s.sizeClass(0).buckets());
    assertEquals(1, s.sizeClass(0).usedItems());
    assertEquals(15, s.sizeClass(0).freeItems());
    assertEquals(2, s.sizeClass(1).usedItems());
    assertEquals(6, s.sizeClass(1).freeItems());
    assertEquals(3, s.sizeClass(2).freeItems());
    assertEquals(4, s.usedItems());
  }

  @Test
  void concurrentAllocateAndFreeKeepCounters() throws Exception {
    BucketAllocator a = new BucketAllocator(4L << 20, BucketSizes.fine(64 * K));
    int threads = 4;
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
    List<Thread> workers = new ArrayList<>();
    java.util.concurrent.ConcurrentLinkedQueue<Throwable> errors = new java.util.concurrent.ConcurrentLinkedQueue<>();
    for (int t = 0; t < threads; t++) {
      int seed = t;
      Thread w = new Thread(() -> {
        try {
          SplittableRandom r = new SplittableRandom(seed);
          List<long[]> mine = new ArrayList<>();
          start.await();
          for (int i = 0; i < 20_000; i++) {
            if (!mine.isEmpty() && r.nextBoolean()) {
              long[] e = mine.remove(mine.size() - 1);
              a.free(e[0], (int) e[1]);
            } else {
              int len = 1 + r.nextInt(64 * K);
              long o = a.allocate(len);
              if (o >= 0) {
                mine.add(new long[] {o, len});
              }
            }
          }
          for (long[] e : mine) {
            a.free(e[0], (int) e[1]);
          }
        } catch (Throwable e) {
          errors.add(e);
        }
      });
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    assertTrue(errors.isEmpty(), errors::toString);
    assertEquals(0, a.stats().usedItemBytes());
    assertEquals(0, a.stats().blockBytes());
  }
  @Test
  void hasRoomForAgreesWithAllocateAsClassesFillAndEmpty() {
    BucketAllocator a = new BucketAllocator(2 * 16 * K, SMALL); // two buckets
    List<Long> taken = new ArrayList<>();
    while (a.hasRoomFor(4 * K)) {
      long offset = a.allocate(4 * K);
      assertNotEquals(-1, offset, "hasRoomFor said yes");
      taken.add(offset);
    }
    assertEquals(-1, a.allocate(4 * K), "hasRoomFor said no");
    assertEquals(8, taken.size());
    assertFalse(a.hasRoomFor(K), "no bucket left for another class either");

    a.free(taken.remove(0), 4 * K);
    assertTrue(a.hasRoomFor(4 * K), "a freed item is room again");
    assertFalse(a.hasRoomFor(K), "its bucket still belongs to the 4 KiB class");
    for (long offset : taken.subList(0, 3)) {
      a.free(offset, 4 * K);
    }
    assertTrue(a.hasRoomFor(K), "an emptied bucket is unassigned again");
  }

  @Test
  void hasRoomForReadByAnotherThreadDuringAllocationsSettlesOnTheTruth() throws Exception {
    BucketAllocator a = new BucketAllocator(8 * 16 * K, SMALL);
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch reading = new CountDownLatch(1);
    Thread reader = new Thread(() -> {
      while (!done.get()) {
        a.hasRoomFor(2 * K);
        reading.countDown();
      }
    });
    reader.start();
    assertTrue(reading.await(10, TimeUnit.SECONDS), "the reader started");
    List<Long> taken = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(7);
    try {
      for (int round = 0; round < 20_000; round++) {
        long offset = a.allocate(2 * K);
        if (offset >= 0) {
          taken.add(offset);
        }
        if (offset < 0 || random.nextInt(3) == 0) {
          a.free(taken.remove(random.nextInt(taken.size())), 2 * K);
        }
      }
    } finally {
      done.set(true);
      reader.join();
    }
    while (a.allocate(2 * K) >= 0) {
      // fill every bucket
    }
    assertFalse(a.hasRoomFor(2 * K), "a full allocator has no room, whatever was read concurrently");
    a.free(taken.get(0), 2 * K);
    assertTrue(a.hasRoomFor(2 * K), "and a free makes room");
  }
}
