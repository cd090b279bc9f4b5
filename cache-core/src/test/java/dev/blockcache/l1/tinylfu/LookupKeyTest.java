package dev.blockcache.l1.tinylfu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.buffer.HeapBlock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link LookupKey} and the {@link KeyedBlock}s it finds: the map's keys are the cached blocks. */
class LookupKeyTest {
  private static KeyedBlock block(BlockKey key) {
    ByteBuf bytes = Unpooled.wrappedBuffer(new byte[] {1, 2, 3});
    try {
      return new KeyedBlock(key, HeapBlock.copyOf(bytes, BlockCategory.DATA));
    } finally {
      bytes.release();
    }
  }

  @Test
  void findsTheStoredBlockWithTheSameKeyFieldsInAHashMap() {
    Map<Object, String> map = new HashMap<>();
    KeyedBlock stored = block(BlockKey.of("hfile-a", 4096));
    map.put(stored, "block");

    BlockKey equalButNotSame = BlockKey.of(new String("hfile-a"), 4096);
    LookupKey lookup = LookupKey.of(equalButNotSame);

    assertEquals(equalButNotSame.hashCode(), stored.hashCode());
    assertEquals(stored.hashCode(), lookup.hashCode());
    assertEquals(lookup, stored);
    assertEquals(stored, lookup);
    assertEquals("block", map.get(lookup));
    assertEquals(stored, block(equalButNotSame), "blocks of one key are equal keys of the map");
  }

  @Test
  void anotherOffsetOrFileIsNotFound() {
    KeyedBlock stored = block(BlockKey.of("hfile-a", 4096));

    assertNotEquals(LookupKey.of(BlockKey.of("hfile-a", 8192)), stored);
    assertNotEquals(LookupKey.of(BlockKey.of("hfile-b", 4096)), stored);
    assertNotEquals(LookupKey.of(stored.key()), "hfile-a@4096");
    assertNotEquals(stored, block(BlockKey.of("hfile-a", 8192)));
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
