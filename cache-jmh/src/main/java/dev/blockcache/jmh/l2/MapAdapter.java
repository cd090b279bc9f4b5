package dev.blockcache.jmh.l2;

import dev.blockcache.api.BlockKey;
import dev.blockcache.jmh.l1.Keys;
import dev.blockcache.jmh.l1.OurKeys;
import dev.blockcache.jmh.l1.ThreeBytes;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A bare {@link ConcurrentHashMap} from {@link BlockKey} to the block's bytes on the heap: the floor of a lookup with
 * our key type (come by as the setup says, {@link OurKeys}) and three bytes read, nothing reference-counted, no slot
 * read. Inserts store the content array itself; nothing waits.
 *
 * <p>Thread-safety: as {@link L2Adapter}.
 */
final class MapAdapter implements L2Adapter {
  private final String name;
  private final Keys names;
  private final BlockKey[] keys;
  private final OurKeys lookups;
  private final ConcurrentHashMap<BlockKey, byte[]> map;
  private byte[][] sources;

  MapAdapter(String name, L2Setup setup) {
    this.name = name;
    this.names = new Keys(setup.blockSize());
    this.keys = new BlockKey[setup.keys()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = BlockKey.of(names.file(i), names.offset(i));
    }
    this.lookups = new OurKeys(names, keys.length, setup.keySource());
    this.map = new ConcurrentHashMap<>(keys.length * 2);
  }

  @Override
  public void prepareSources() {
    sources = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      sources[i] = names.content(i);
    }
  }

  @Override
  public boolean insert(int i) {
    map.put(keys[i], sources != null ? sources[i] : names.content(i));
    return true;
  }

  @Override
  public void drain() {
  }

  @Override
  public int get(int i) {
    byte[] block = map.get(lookups.key(i));
    if (block == null) {
      throw L2Adapter.miss(name, i);
    }
    return ThreeBytes.of(block);
  }

  @Override
  public long blockCount() {
    return map.size();
  }

  @Override
  public void clear() {
    map.clear();
  }

  @Override
  public void close() {
    map.clear();
  }
}
