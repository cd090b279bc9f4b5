package dev.blockcache.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CacheableDeserializer;
import org.apache.hadoop.hbase.io.hfile.CacheableDeserializerIdManager;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.junit.jupiter.api.Test;

class KnownDeserializersTest {
  /** A deserializer HBase numbers on registration; never called. */
  private static final class Unused implements CacheableDeserializer<Cacheable> {
    private int id;

    @Override
    public Cacheable deserialize(ByteBuff b, ByteBuffAllocator allocator) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int getDeserializerIdentifier() {
      return id;
    }
  }

  @Test
  void findsHBasesOwnDeserializerEveryTime() {
    KnownDeserializers known = new KnownDeserializers();
    int id = HFileBlock.BLOCK_DESERIALIZER.getDeserializerIdentifier();

    assertSame(HFileBlock.BLOCK_DESERIALIZER, known.get(id));
    assertSame(HFileBlock.BLOCK_DESERIALIZER, known.get(id));
  }

  @Test
  void anIdentifierRegisteredAfterAMissIsFound() {
    KnownDeserializers known = new KnownDeserializers();
    Unused probe = new Unused();
    probe.id = CacheableDeserializerIdManager.registerDeserializer(probe);
    int next = probe.id + 1;

    assertNull(known.get(next), "not registered yet");
    Unused later = new Unused();
    later.id = CacheableDeserializerIdManager.registerDeserializer(later);

    assertEquals(next, later.id, "HBase numbers registrations in order");
    assertSame(later, known.get(next), "a miss is not remembered");
  }

  @Test
  void identifiersOutsideTheTableAreLookedUpInHBasesRegistry() {
    KnownDeserializers known = new KnownDeserializers();

    assertNull(known.get(KnownDeserializers.REMEMBERED + 1_000));
    assertNull(known.get(-1));
  }
}
