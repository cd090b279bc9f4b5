package dev.blockcache.bucket.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The shadow LRU against a reference LRU ({@link LinkedHashMap} in access order) on the same accesses. */
class RecencyShadowTest {
  /** A reference LRU of a capacity that can change. */
  private static final class ReferenceLru extends LinkedHashMap<Long, Boolean> {
    private static final long serialVersionUID = 1L;
    int capacity;

    ReferenceLru(int capacity) {
      super(16, 0.75f, true);
      this.capacity = capacity;
    }

    boolean access(long key) {
      if (get(key) != null) {
        return true;
      }
      put(key, Boolean.TRUE);
      return false;
    }

    void shrink(int entries) {
      capacity = entries;
      var it = entrySet().iterator();
      while (size() > capacity) {
        it.next();
        it.remove();
      }
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
      return size() > capacity;
    }
  }

  @Test
  void hitsExactlyWhereAnLruOfTheSameCapacityHits() {
    RecencyShadow shadow = new RecencyShadow(512);
    ReferenceLru reference = new ReferenceLru(512);
    Random random = new Random(11);
    int hits = 0;
    for (int i = 0; i < 200_000; i++) {
      // A skewed key space three times the capacity: hits and evictions both happen often.
      long key = (long) (Math.pow(random.nextDouble(), 2) * 1536);
      if (i == 100_000) {
        shadow.capacity(200);
        reference.shrink(200);
      }
      if (i == 150_000) {
        shadow.capacity(512);
        reference.capacity = 512;
      }
      boolean expected = reference.access(key);
      assertEquals(expected, shadow.access(key), "access " + i + " of key " + key);
      hits += expected ? 1 : 0;
      assertEquals(reference.size(), shadow.size());
    }
    assertTrue(hits > 20_000 && hits < 180_000, "the stream exercises both hits and misses: " + hits);
  }

  @Test
  void clearForgetsEveryKey() {
    RecencyShadow shadow = new RecencyShadow(8);
    for (long k = 0; k < 8; k++) {
      shadow.access(k);
    }
    assertTrue(shadow.access(3));
    shadow.clear();
    assertEquals(0, shadow.size());
    assertFalse(shadow.access(3));
  }

  @Test
  void rejectsACapacityOutsideItsArrays() {
    RecencyShadow shadow = new RecencyShadow(8);
    assertThrows(IllegalArgumentException.class, () -> shadow.capacity(0));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> shadow.capacity(9));
    assertTrue(e.getMessage().contains("9"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new RecencyShadow(0));
  }
}
