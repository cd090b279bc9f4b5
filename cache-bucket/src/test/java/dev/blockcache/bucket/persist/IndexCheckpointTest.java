package dev.blockcache.bucket.persist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.testing.Figures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index checkpoint file: round trip, and every truncation and random 1-3 bit mutation rejected before any record
 * is handed out (2,000 mutated files in verify, 100,000 with {@code -Dblockcache.fuzz.long=true}).
 */
class IndexCheckpointTest {
  private static final long CONFIG = 0x1234_5678_9abc_def0L;

  @TempDir Path dir;

  private static BlockIndex filled(int n) {
    BlockIndex index = new BlockIndex(n);
    for (int i = 0; i < n; i++) {
      index.putIfAbsent(BlockKey.of("f" + (i % 7), i * 4096L),
          IndexEntry.pack(i * 256L, 100 + i % 1000, CachePriority.values()[i % 3], BlockCategory.DATA));
    }
    return index;
  }

  private static List<long[]> records(BlockIndex index) {
    List<long[]> out = new ArrayList<>();
    index.forEach((s, f, e) -> out.add(new long[] {s, f, e}));
    out.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0])
        : a[1] != b[1] ? Long.compare(a[1], b[1]) : Long.compare(a[2], b[2]));
    return out;
  }

  @Test
  void roundTripRestoresEveryEntryAndLookupsFindThem() throws IOException {
    BlockIndex index = filled(5000);
    Path file = dir.resolve("index");
    assertEquals(5000, new IndexCheckpointWriter(file, CONFIG).write(index));
    assertEquals(IndexFileLayout.fileLength(5000), Files.size(file));

    BlockIndex restored = new BlockIndex(5000);
    IndexCheckpointReader.Result r = new IndexCheckpointReader(CONFIG)
        .read(file, restored.segmentCount(), restored::restore);
    assertEquals(IndexCheckpointReader.Status.RESTORED, r.status(), r.reason());
    assertEquals(5000, r.records());
    assertEquals(5000, restored.size());
    for (int i = 0; i < 5000; i++) {
      BlockKey k = BlockKey.of("f" + (i % 7), i * 4096L);
      assertEquals(index.peek(k), restored.peek(k), k.toString());
    }
    assertEquals(records(index).size(), records(restored).size());
  }

  /**
   * A checkpoint larger than the writer's flush (1 MiB of records) and the reader's chunk streams through both in
   * pieces: every record restored once, each segment presized with its own count first.
   */
  @Test
  void aCheckpointOfManyChunksStreamsWholeAndCountsEverySegmentFirst() throws IOException {
    int n = 150_000; // 3 MB of records: several flushes and several reader chunks, one chunk ending mid-segment
    BlockIndex index = filled(n);
    Path file = dir.resolve("index");
    assertEquals(n, new IndexCheckpointWriter(file, CONFIG).write(index));
    assertEquals(IndexFileLayout.fileLength(n), Files.size(file));

    BlockIndex restored = new BlockIndex(n);
    int[] expected = new int[restored.segmentCount()];
    int[] seen = new int[restored.segmentCount()];
    IndexCheckpointReader.Result r = new IndexCheckpointReader(CONFIG).read(file, restored.segmentCount(),
        (segment, records) -> expected[segment] = records, (segment, fingerprint, entry) -> {
          seen[segment]++;
          restored.restore(segment, fingerprint, entry);
        });
    assertEquals(IndexCheckpointReader.Status.RESTORED, r.status(), r.reason());
    assertEquals(n, r.records());
    assertEquals(n, restored.size());
    assertEquals(Arrays.toString(expected), Arrays.toString(seen));
    assertEquals(records(index).stream().map(Arrays::toString).toList(),
        records(restored).stream().map(Arrays::toString).toList(), "the same triples");
  }

  @Test
  void missingFileIsReportedAsMissing() {
    assertEquals(IndexCheckpointReader.Status.MISSING,
        new IndexCheckpointReader(CONFIG).read(dir.resolve("none"), 16, (s, f, e) -> { }).status());
  }

  @Test
  void anotherConfigurationIsDiscardedWithoutRecords() throws IOException {
    Path file = dir.resolve("index");
    BlockIndex index = filled(100);
    new IndexCheckpointWriter(file, CONFIG).write(index);
    long[] seen = {0};
    IndexCheckpointReader.Result r = new IndexCheckpointReader(CONFIG + 1)
        .read(file, index.segmentCount(), (s, f, e) -> seen[0]++);
    assertEquals(IndexCheckpointReader.Status.CONFIG_MISMATCH, r.status());
    assertEquals(0, seen[0]);
  }

  @Test
  void wrongVersionAndHugeCountAreCorrupt() throws IOException {
    Path file = dir.resolve("index");
    new IndexCheckpointWriter(file, CONFIG).write(filled(10));
    byte[] good = Files.readAllBytes(file);

    byte[] version = good.clone();
    version[IndexFileLayout.VERSION_OFFSET + 3] = (byte) (IndexFileLayout.VERSION + 1);
    assertCorrupt(file, version);

    byte[] huge = good.clone();
    int countAt = huge.length - IndexFileLayout.TRAILER_LENGTH;
    huge[countAt] = 0x7f;
    assertCorrupt(file, huge);
  }

  @Test
  void everyTruncationIsCorrupt() throws IOException {
    Path file = dir.resolve("index");
    new IndexCheckpointWriter(file, CONFIG).write(filled(50));
    byte[] good = Files.readAllBytes(file);
    for (int len = 0; len < good.length; len++) {
      assertCorrupt(file, java.util.Arrays.copyOf(good, len));
    }
  }

  @Test
  void randomMutationsAreDetectedAndHandOutNothing() throws IOException {
    Path file = dir.resolve("index");
    BlockIndex index = filled(200);
    new IndexCheckpointWriter(file, CONFIG).write(index);
    byte[] good = Files.readAllBytes(file);
    int rounds = Boolean.getBoolean("blockcache.fuzz.long") ? 100_000 : 2_000;
    SplittableRandom rnd = new SplittableRandom(42);
    long start = System.nanoTime();
    int checked = 0;
    for (int i = 0; i < rounds; i++) {
      byte[] bad = good.clone();
      int flips = 1 + rnd.nextInt(3);
      for (int f = 0; f < flips; f++) {
        int at = rnd.nextInt(bad.length);
        bad[at] ^= (byte) (1 << rnd.nextInt(8));
      }
      // CRC32C has Hamming distance >= 4 at this length: every 1..3-bit error is detected (flips may cancel).
      if (!java.util.Arrays.equals(bad, good)) {
        assertCorrupt(file, bad);
        checked++;
      }
    }
    new Figures("IndexCheckpointTest", "mutated-checkpoints").put("files", checked).put("rejected", checked)
        .put("recordsHandedOut", 0).put("ms", (System.nanoTime() - start) / 1_000_000).print();
  }

  private void assertCorrupt(Path file, byte[] content) throws IOException {
    Files.write(file, content);
    long[] seen = {0};
    IndexCheckpointReader.Result r = new IndexCheckpointReader(CONFIG).read(file, 16, (s, f, e) -> seen[0]++);
    assertNotEquals(IndexCheckpointReader.Status.RESTORED, r.status(), "length " + content.length);
    assertEquals(0, seen[0]);
  }
}
