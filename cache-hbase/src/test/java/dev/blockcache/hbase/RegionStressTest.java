package dev.blockcache.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.hbase.testing.RegionHarness;
import dev.blockcache.hbase.testing.TestCaches;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.hfile.CombinedBlockCache;
import org.apache.hadoop.hbase.io.hfile.LruBlockCache;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reliability under HBase: one writer (puts, a flush every {@value #PUTS_PER_FLUSH} puts, a compaction every
 * {@value #FLUSHES_PER_COMPACTION} flushes, alternately minor and major, with the compacted files archived and
 * evicted) and two readers (gets and short scans) on one region whose data blocks live in a small L2 that must evict
 * all the time, for a bounded time ({@code -Dblockcache.stress.seconds}, 4 by default; the reliability profile runs
 * 60). Every cell carries its row and version, and a reader never sees a version older than one whose put had
 * returned before its read began: zero wrong cells, zero lost updates. Both leak detectors run after the test.
 */
class RegionStressTest {
  private static final int ROWS = 2_000;
  private static final int PUTS_PER_FLUSH = 400;
  private static final int FLUSHES_PER_COMPACTION = 2;
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir
  java.nio.file.Path dir;

  @Test
  void readersNeverSeeAWrongOrStaleCellWhileFlushesAndCompactionsChurnTheL2() throws Exception {
    long seconds = Long.getLong("blockcache.stress.seconds", 4);
    Configuration conf = TestCaches.conf("offheap", 1);
    conf.set("hbase.bucketcache.bucket.sizes", "9216,17408");
    HBaseL2Cache ours = TestCaches.ours(conf);
    AtomicIntegerArray published = new AtomicIntegerArray(ROWS);
    ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong reads = new AtomicLong();
    long[] compactions = {0};
    try (RegionHarness h = new RegionHarness(conf, dir.resolve("stress"),
        new CombinedBlockCache(new LruBlockCache(1L << 20, 8 * 1024), ours))) {
      for (int row = 0; row < ROWS; row++) {
        put(h, row, 1);
        published.set(row, 1);
      }
      h.region().flush(true);
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> readers = new ArrayList<>();
      List<Throwable> failures = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        Thread t = new Thread(() -> {
          try {
            start.await();
            read(h, published, wrong, stop, reads);
          } catch (Throwable e) {
            synchronized (failures) {
              failures.add(e);
            }
          }
        }, "reader-" + r);
        t.start();
        readers.add(t);
      }
      start.countDown();
      long deadline = System.nanoTime() + seconds * 1_000_000_000L;
      int puts = 0;
      int flushes = 0;
      while (System.nanoTime() < deadline) {
        int row = ThreadLocalRandom.current().nextInt(ROWS);
        int version = published.get(row) + 1;
        put(h, row, version);
        published.set(row, version);
        if (++puts % PUTS_PER_FLUSH == 0) {
          h.region().flush(true);
          if (++flushes % FLUSHES_PER_COMPACTION == 0) {
            if (flushes % (2 * FLUSHES_PER_COMPACTION) == 0) {
              h.majorCompact();
            } else {
              h.minorCompact();
            }
            compactions[0]++;
          }
        }
      }
      stop.set(true);
      for (Thread t : readers) {
        t.join();
      }
      assertTrue(failures.isEmpty(), "reader failed: " + failures);
    } finally {
      ours.shutdown();
    }
    assertTrue(wrong.isEmpty(), wrong.size() + " wrong cells, first: " + wrong.peek());
    // A low bound: both leak detectors at PARANOID record a stack trace per buffer, which makes every read slow; the
    // bound only proves that the readers ran.
    assertTrue(reads.get() > 100, "reads: " + reads.get());
    assertTrue(compactions[0] > 0, "no compaction ran");
    assertTrue(ours.getStats().getHitCount() > 0, "no read was served by the L2");
    assertTrue(ours.getStats().getEvictedCount() > 0, "the L2 never evicted: the test did not churn it");
    assertEquals(0, ours.l2().metrics().pinnedSlots(), "slots still pinned after every block was released");
  }

  private static void put(RegionHarness h, int row, int version) throws IOException {
    Put put = new Put(row(row));
    put.addColumn(RegionHarness.FAMILY, Q, value(row, version));
    put.setDurability(Durability.ASYNC_WAL); // logged, not synced per put: the test is about reads
    h.region().put(put);
  }

  private static void read(RegionHarness h, AtomicIntegerArray published, ConcurrentLinkedQueue<String> wrong,
      AtomicBoolean stop, AtomicLong reads) throws IOException {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    while (!stop.get()) {
      int row = random.nextInt(ROWS);
      if (random.nextInt(8) == 0) {
        int last = Math.min(ROWS, row + 10);
        int[] floors = new int[last - row];
        for (int i = row; i < last; i++) {
          floors[i - row] = published.get(i);
        }
        try (RegionScanner scanner = h.region().getScanner(new Scan().withStartRow(row(row)).withStopRow(row(last)))) {
          List<Cell> cells = new ArrayList<>();
          boolean more;
          int expected = row;
          do {
            cells.clear();
            more = scanner.next(cells);
            for (Cell c : cells) {
              check(c, expected, floors[expected - row], wrong);
              expected++;
            }
          } while (more);
          if (expected != last) {
            wrong.add("scan of [" + row + ", " + last + ") ended at " + expected);
          }
        }
      } else {
        int floor = published.get(row);
        Result result = h.region().get(new Get(row(row)));
        if (result.isEmpty()) {
          wrong.add("row " + row + " missing");
        } else {
          check(result.rawCells()[0], row, floor, wrong);
        }
      }
      reads.incrementAndGet();
    }
  }

  private static void check(Cell cell, int row, int floor, ConcurrentLinkedQueue<String> wrong) {
    String value = new String(CellUtil.cloneValue(cell), StandardCharsets.US_ASCII);
    String[] parts = value.split(":", 3);
    if (!Bytes.equals(row(row), CellUtil.cloneRow(cell)) || parts.length != 3
        || Integer.parseInt(parts[0]) != row || !value.equals(new String(value(row, Integer.parseInt(parts[1])),
            StandardCharsets.US_ASCII))) {
      wrong.add("row " + row + ": " + value);
    } else if (Integer.parseInt(parts[1]) < floor) {
      wrong.add("row " + row + ": version " + parts[1] + " older than published " + floor);
    }
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row-%06d", i));
  }

  /** "row:version:" then filler derived from both, 600 bytes (the data outgrows the 1 MB L2): any mix-up of rows or versions shows. */
  private static byte[] value(int row, int version) {
    StringBuilder v = new StringBuilder().append(row).append(':').append(version).append(':');
    long x = row * 31L + version * 0x9E3779B97F4A7C15L;
    while (v.length() < 600) {
      x = x * 6364136223846793005L + 1442695040888963407L;
      v.append((char) ('a' + ((x >>> 33) % 26)));
    }
    return v.toString().getBytes(StandardCharsets.US_ASCII);
  }
}
