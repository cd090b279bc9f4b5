package dev.blockcache.l1.tinylfu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.blockcache.api.BlockKey;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LookupKeyTest {
  @Test
  void findsTheStoredKeyWithTheSameFieldsInAHashMap() {
    Map<Object, String> map = new HashMap<>();
    BlockKey stored = BlockKey.of("hfile-a", 4096);
    map.put(stored, "block");

    BlockKey equalButNotSame = BlockKey.of(new String("hfile-a"), 4096);
    LookupKey lookup = LookupKey.of(equalButNotSame);

    assertEquals(stored.hashCode(), lookup.hashCode());
    assertEquals(lookup, stored);
    assertEquals("block", map.get(lookup));
  }

  @Test
  void anotherOffsetOrFileIsNotFound() {
    BlockKey stored = BlockKey.of("hfile-a", 4096);

    assertNotEquals(LookupKey.of(BlockKey.of("hfile-a", 8192)), stored);
    assertNotEquals(LookupKey.of(BlockKey.of("hfile-b", 4096)), stored);
    assertNotEquals(LookupKey.of(stored), "hfile-a@4096");
  }

  @Test
  void eachThreadHasItsOwnAndReusesIt() throws InterruptedException {
    LookupKey mine = LookupKey.of(BlockKey.of("f", 1));
    assertSame(mine, LookupKey.of(BlockKey.of("g", 2)), "one per thread, reused");
    AtomicReference<LookupKey> other = new AtomicReference<>();
    Thread t = new Thread(() -> other.set(LookupKey.of(BlockKey.of("f", 1))));
    t.start();
    t.join();
    assertNotSame(mine, other.get());
  }
}
