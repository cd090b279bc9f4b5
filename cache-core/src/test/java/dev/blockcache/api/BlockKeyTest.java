package dev.blockcache.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
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
    String[] bad = {"abc\ud800", "abc\udc00", "\ud800abc", "ab\udc00\ud800c", "abcdefgh\ud800",
        "abcdefg\u00e9\udc00z"};
    int[] at = {3, 3, 0, 2, 8, 8};
    for (int i = 0; i < bad.length; i++) {
      String name = bad[i];
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BlockKey.of(name, 0));
      assertTrue(e.getMessage().contains("unpaired surrogate"), e.getMessage());
      assertTrue(e.getMessage().contains("at index " + at[i]), e.getMessage());
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
  void fileHashIsTheHashOfTheUtf8BytesForEveryKindOfName() {
    // Persisted L2 indexes hold hashes of the UTF-8 bytes: hashing the chars must give the same bits.
    String[] names = {"a", "hfile-1", "0123456789abcdef0123456789abcdef", "1234567", "12345678", "123456789",
        "caf\u00e9", "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9", "abcdefg\u00e9xyz",
        "\u65e5\u672c\u8a9e\u30d5\u30a1\u30a4\u30eb",
        "a\ud83d\ude00b", "\ud83d\ude00\ud83d\ude00\ud83d\ude00", "abcdefgh\u0800\uffff\u07ff\u0080\u007f"};
    for (String name : names) {
      assertEquals(Hashing.hashBytes(name.getBytes(StandardCharsets.UTF_8)), BlockKey.fileHash(name), name);
    }
    SplittableRandom random = new SplittableRandom(7);
    for (int n = 0; n < 2_000; n++) {
      StringBuilder name = new StringBuilder();
      int length = 1 + random.nextInt(40);
      while (name.length() < length) {
        int kind = random.nextInt(4);
        int cp = kind == 0 ? random.nextInt(0x80) : kind == 1 ? 0x80 + random.nextInt(0x780)
            : kind == 2 ? 0x800 + random.nextInt(0xD000 - 0x800) : 0x10000 + random.nextInt(0x100000);
        name.appendCodePoint(cp);
      }
      String s = name.toString();
      assertEquals(Hashing.hashBytes(s.getBytes(StandardCharsets.UTF_8)), BlockKey.fileHash(s), s);
    }
  }

  @Test
  void aFileHandleBuildsTheKeysThatOfBuilds() {
    for (String name : new String[] {"f", "0123456789abcdef0123456789abcdef", "caf\u00e9-\ud83d\ude00"}) {
      BlockFile file = BlockKey.file(name);
      for (long offset : new long[] {0, 1, 4096, Long.MAX_VALUE}) {
        BlockKey viaHandle = file.block(offset);
        BlockKey viaOf = BlockKey.of(new String(name), offset);
        assertEquals(viaOf, viaHandle);
        assertEquals(viaHandle, viaOf);
        assertEquals(viaOf.hashCode(), viaHandle.hashCode());
        assertEquals(viaOf.hash64(), viaHandle.hash64());
        assertEquals(viaOf.fileHash(), viaHandle.fileHash());
        assertEquals(file.fileHash(), viaHandle.fileHash());
        assertEquals(viaOf.hash64(), file.blockHash64(offset));
        assertEquals(name, viaHandle.file());
      }
    }
    assertThrows(NullPointerException.class, () -> BlockKey.file(null));
    assertThrows(IllegalArgumentException.class, () -> BlockKey.file(""));
    assertThrows(IllegalArgumentException.class, () -> BlockKey.file("abc\ud800"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BlockKey.file("f").block(-3));
    assertTrue(e.getMessage().contains("-3"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> BlockKey.file("f").blockHash64(-3));
    assertTrue(e.getMessage().contains("-3"), e.getMessage());
  }

  @Test
  void theNameMemoAnswersAsTheHashWhateverCollidesInIt() {
    // More names than slots, asked twice in both orders and under new String instances: every answer is the hash.
    String[] names = new String[20_000];
    for (int i = 0; i < names.length; i++) {
      names[i] = "hfile-" + Integer.toHexString(i * 0x9E3779B1) + (i % 7 == 0 ? "\u00e9" : "");
    }
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < names.length; i++) {
        String name = round == 0 ? names[i] : new String(names[names.length - 1 - i]);
        assertEquals(NameHash.of(name), NameHashes.of(name), name);
        assertEquals(NameHash.of(name), NameHashes.of(name), name); // the memo's own answer
      }
    }
    assertThrows(IllegalArgumentException.class, () -> NameHashes.of("bad\ud800"));
    assertThrows(IllegalArgumentException.class, () -> NameHashes.of("bad\ud800")); // never memoised
  }

  @Test
  void aNameWithoutAUtf8FormStillHashesForEvictByFile() {
    assertEquals(Hashing.hashBytes("abc\ud800".getBytes(StandardCharsets.UTF_8)), BlockKey.fileHash("abc\ud800"));
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
