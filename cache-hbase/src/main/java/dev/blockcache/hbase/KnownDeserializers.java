package dev.blockcache.hbase;

import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CacheableDeserializer;
import org.apache.hadoop.hbase.io.hfile.CacheableDeserializerIdManager;

/**
 * HBase's registered deserializers by identifier, each looked up in HBase's registry once: a hit then finds its
 * deserializer by an array read instead of a map lookup with a boxed key.
 *
 * <p>Invariant: HBase gives every registration a new identifier and never removes one, so an identifier that has
 * named a deserializer names it for the life of the JVM and may be remembered; an identifier not registered yet is
 * not remembered, since a later registration may take it.
 *
 * <p>Thread-safety: thread-safe; the table is an {@link AtomicReferenceArray}, and two threads remembering the same
 * identifier at once store the same deserializer.
 */
final class KnownDeserializers {
  /** Identifiers below this are remembered; HBase registers a handful, numbered from 1. */
  static final int REMEMBERED = 64;

  private final AtomicReferenceArray<CacheableDeserializer<Cacheable>> byId =
      new AtomicReferenceArray<>(REMEMBERED);

  /** The deserializer registered under {@code id}, or null if none is. */
  CacheableDeserializer<Cacheable> get(int id) {
    if (id < 0 || id >= REMEMBERED) {
      return CacheableDeserializerIdManager.getDeserializer(id);
    }
    CacheableDeserializer<Cacheable> known = byId.get(id);
    if (known == null) {
      known = CacheableDeserializerIdManager.getDeserializer(id);
      if (known != null) {
        byId.set(id, known);
      }
    }
    return known;
  }
}
