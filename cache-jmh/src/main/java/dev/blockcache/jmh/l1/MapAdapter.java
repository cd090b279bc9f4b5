package dev.blockcache.jmh.l1;

import dev.blockcache.api.BlockKey;
import dev.blockcache.jmh.workload.KeySource;
import java.util.Map;

/**
 * A raw map from {@link BlockKey} to the block's bytes (a {@code ConcurrentHashMap}, or a bounded Caffeine cache's
 * map view): the floor a cache's get can approach. Nothing is reference-counted, so a get reads three bytes of the
 * array.
 *
 * <p>Thread-safety: as {@link L1Adapter}.
 */
final class MapAdapter implements L1Adapter {
  /** Reads one key; a bounded Caffeine cache goes through {@code getIfPresent}, which records the access. */
  interface Lookup {
    byte[] get(BlockKey key);
  }

  private final String name;
  private final Map<BlockKey, byte[]> map;
  private final Lookup lookup;
  private final Runnable cleanUp;
  private final Keys names;
  private final int count;
  private final OurKeys keys;

  MapAdapter(String name, Map<BlockKey, byte[]> map, Lookup lookup, Runnable cleanUp, Keys names, int count,
      KeySource source) {
    this.name = name;
    this.map = map;
    this.lookup = lookup;
    this.cleanUp = cleanUp;
    this.names = names;
    this.count = count;
    this.keys = new OurKeys(names, count, source);
  }

  @Override
  public void populate() {
    for (int i = 0; i < count; i++) {
      map.put(BlockKey.of(names.file(i), names.offset(i)), names.content(i));
    }
    cleanUp.run();
    if (map.size() != count) {
      throw new IllegalStateException(name + ": " + map.size() + " of " + count + " blocks cached");
    }
  }

  @Override
  public int get(int i, ThreeBytes reader) {
    byte[] block = lookup.get(keys.key(i));
    if (block == null) {
      throw L1Adapter.miss(name, i);
    }
    return ThreeBytes.of(block);
  }

  @Override
  public long blockCount() {
    return map.size();
  }

  @Override
  public void close() {
    map.clear();
  }
}
