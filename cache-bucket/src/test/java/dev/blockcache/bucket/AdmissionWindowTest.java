package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pins the window's bookkeeping: oldest first, membership exact through growth and deletions. */
class AdmissionWindowTest {
  @Test
  void blocksLeaveOldestFirstWithTheirSegments() {
    AdmissionWindow window = new AdmissionWindow();
    window.add(11, 1);
    window.add(22, 2);
    window.add(11, 3); // already in: keeps its place and segment
    assertEquals(2, window.size());
    assertEquals(11, window.oldestFingerprint());
    assertEquals(1, window.oldestSegment());
    window.removeOldest();
    assertFalse(window.contains(11));
    assertTrue(window.contains(22));
    assertEquals(2, window.oldestSegment());
    window.removeOldest();
    assertEquals(0, window.size());
    assertThrows(IllegalStateException.class, window::oldestFingerprint);
    assertThrows(IllegalArgumentException.class, () -> window.add(0, 0));
  }

  @Test
  void membershipMatchesAReferenceSetThroughGrowthAndWrapAround() {
    AdmissionWindow window = new AdmissionWindow();
    ArrayDeque<Long> order = new ArrayDeque<>();
    Set<Long> members = new HashSet<>();
    Random random = new Random(18);
    for (int step = 0; step < 200_000; step++) {
      // Fingerprints of one "file" share their top bits, as index fingerprints do; a few repeat.
      long fp = (7L << 40) | (random.nextInt(5_000) + 1);
      if (random.nextInt(3) > 0 || order.isEmpty()) {
        window.add(fp, (int) (fp & 7));
        if (members.add(fp)) {
          order.addLast(fp);
        }
      } else {
        long oldest = order.removeFirst();
        members.remove(oldest);
        assertEquals(oldest, window.oldestFingerprint());
        assertEquals((int) (oldest & 7), window.oldestSegment());
        window.removeOldest();
      }
      assertEquals(members.size(), window.size());
      long probe = (7L << 40) | (random.nextInt(5_000) + 1);
      assertEquals(members.contains(probe), window.contains(probe), "membership of " + probe);
    }
    assertArrayEquals(order.stream().mapToLong(Long::longValue).toArray(), window.fingerprintsOldestFirst());
  }

  @Test
  void itsHeapIsAFewBytesPerWindowBlock() {
    AdmissionWindow window = new AdmissionWindow();
    for (int i = 1; i <= 10_000; i++) {
      window.add(i, 0);
    }
    // ring 12 B + set 16-32 B per slot, slots a power of two above the size: at most 2 x 44 B per block
    assertTrue(window.heapBytes() <= 88L * 10_000, "heap " + window.heapBytes());
  }
}
