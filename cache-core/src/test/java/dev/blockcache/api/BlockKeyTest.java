package dev.blockcache.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlockKeyTest {
  @Test
  void equalByFileAndOffset() {
    assertEquals(BlockKey.of("a", 1), BlockKey.of(new String("a"), 1));
    assertEquals(BlockKey.of("a", 1).hash64(), BlockKey.of("a", 1).hash64());
    assertNotEquals(BlockKey.of("a", 1), BlockKey.of("a", 2));
    assertNotEquals(BlockKey.of("a", 1), BlockKey.of("b", 1));
    assertEquals(BlockKey.of("a", 1).fileHash(), BlockKey.of("a", 99).fileHash());
  }

  @Test
  void badKeysAreRejectedWithTheirValue() {
    assertThrows(NullPointerException.class, () -> BlockKey.of(null, 0));
    assertThrows(IllegalArgumentException.class, () -> BlockKey.of("", 0));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BlockKey.of("f", -5));
    assertTrue(e.getMessage().contains("-5"), e.getMessage());
  }

  @Test
  void fileNamesWithoutAUtf8FormAreRejected() {
    // Both would encode as "abc?" in UTF-8, the form an L2 header stores: refused, so no two names share one.
    for (String bad : new String[] {"abc\ud800", "abc\udc00", "\ud800abc", "ab\udc00\ud800c"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BlockKey.of(bad, 0));
      assertTrue(e.getMessage().contains("unpaired surrogate"), e.getMessage());
    }
    assertEquals("a\ud83d\ude00b", BlockKey.of("a\ud83d\ude00b", 0).file()); // a pair is a character
  }

  @Test
  void hashesAreStableAcrossReleases() {
    // Persisted indexes store these hashes: a change here must come with a new persistence format version.
    assertEquals(Hashing.hashBytes(new byte[0]), BlockKey.fileHash(""));
    assertEquals(BlockKey.of("hfile-1", 65536).hash64(), BlockKey.of("hfile-1", 65536).hash64());
    assertNotEquals(0L, BlockKey.of("hfile-1", 0).hash64());
  }

  @Test
  void hash64SpreadsAdjacentOffsetsOverEveryBitRange() {
    int keys = 1 << 16;
    Set<Long> low = new HashSet<>();
    Set<Long> high = new HashSet<>();
    Set<Integer> javaHashes = new HashSet<>();
    for (int i = 0; i < keys; i++) {
      BlockKey key = BlockKey.of("file", i * 4096L);
      low.add(key.hash64() & 0xFFFF);
      high.add(key.hash64() >>> 48);
      javaHashes.add(key.hashCode());
    }
    // A random function of 65536 keys into 65536 buckets fills about 63%; demand 60%.
    assertTrue(low.size() > keys * 0.60, "low 16 bits take only " + low.size() + " values");
    assertTrue(high.size() > keys * 0.60, "high 16 bits take only " + high.size() + " values");
    assertTrue(javaHashes.size() > keys * 0.999, "hashCode collides: " + javaHashes.size());
  }
}
