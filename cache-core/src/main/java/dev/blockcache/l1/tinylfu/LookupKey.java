package dev.blockcache.l1.tinylfu;

import dev.blockcache.api.BlockFile;
import dev.blockcache.api.BlockKey;
import java.util.Objects;

/**
 * A reusable stand-in for a {@link BlockKey} in a Caffeine lookup, one per thread, so that the caller's key does not
 * escape into Caffeine's {@code getIfPresent} (too large for the JIT to inline) and can be scalar-replaced: a get with
 * a key built per lookup then allocates only its view.
 *
 * <p>Caffeine's map finds an entry by this key's {@link #hashCode()}, which is the copied key's, and by
 * {@code lookupKey.equals(storedKey)}, which compares the copied fields with the stored {@link KeyedBlock}'s (the map's
 * keys are the blocks themselves). A lookup key must never be stored in the map, only passed to lookups and
 * removals. It keeps a reference to the last name it copied until the
 * thread's next lookup; names are small and shared with the cached keys.
 *
 * <p>Thread-safety: confined to its thread ({@link #of} hands each thread its own).
 */
final class LookupKey {
  private static final ThreadLocal<LookupKey> PER_THREAD = ThreadLocal.withInitial(LookupKey::new);

  private String file;
  private long offset;
  private long hash64;
  private int hashCode;

  private LookupKey() {
  }

  /**
   * This thread's lookup key, holding {@code key}'s fields until the thread's next call.
   *
   * @throws NullPointerException naming the argument if {@code key} is null
   */
  static LookupKey of(BlockKey key) {
    Objects.requireNonNull(key, "key");
    return hold(key.file(), key.offset(), key.hash64());
  }

  /**
   * This thread's lookup key, holding the fields of {@code file.block(offset)} until the thread's next call.
   *
   * @throws NullPointerException naming the argument if {@code file} is null
   * @throws IllegalArgumentException if {@code offset} is negative
   */
  static LookupKey of(BlockFile file, long offset) {
    Objects.requireNonNull(file, "file");
    return hold(file.name(), offset, file.blockHash64(offset));
  }

  private static LookupKey hold(String file, long offset, long hash64) {
    LookupKey lookup = PER_THREAD.get();
    lookup.file = file;
    lookup.offset = offset;
    lookup.hash64 = hash64;
    lookup.hashCode = Long.hashCode(hash64);
    return lookup;
  }

  @Override
  public int hashCode() {
    return hashCode;
  }

  /** Whether {@code o} is a {@link KeyedBlock} cached under the key whose fields this lookup key holds. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof KeyedBlock stored)) {
      return false;
    }
    return stored.hash64() == hash64 && stored.offset() == offset && stored.file().equals(file);
  }

  @Override
  public String toString() {
    return file + "@" + offset;
  }
}
