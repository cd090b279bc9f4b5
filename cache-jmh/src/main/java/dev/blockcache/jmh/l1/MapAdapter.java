package dev.blockcache.jmh.l1;

import dev.blockcache.api.BlockKey;
import java.util.Map;

/**
 * A raw map from {@link BlockKey} to the block's bytes (a {@code ConcurrentHashMap}, or a bounded Caffeine cache's
 * map view): the floor a cache's get can approach. Nothing is reference-counted, so a get reads the array's length.
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
  private final BlockKey[] keys;

  MapAdapter(String name, Map<BlockKey, byte[]> map, Lookup lookup, Runnable cleanUp, int keyCount) {
    this.name = name;
    this.map = map;
    this.lookup = lookup;
    this.cleanUp = cleanUp;
    this.keys = new BlockKey[keyCount];
  }

  @Override
  public void populate(int blockSize) {
    Keys names = new Keys(blockSize);
    for (int i = 0; i < keys.length; i++) {
      keys[i] = BlockKey.of(names.file(i), names.offset(i));
      map.put(keys[i], names.content(i));
    }
    cleanUp.run();
    if (map.size() != keys.length) {
      throw new IllegalStateException(name + ": " + map.size() + " of " + keys.length + " blocks cached");
    }
  }

  @Override
  public int get(int i) {
    byte[] block = lookup.get(keys[i]);
    if (block == null) {
      throw L1Adapter.miss(name, i);
    }
    return block.length;
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
