package dev.blockcache.jmh.l2;

import dev.blockcache.api.BlockKey;
import dev.blockcache.jmh.l1.Keys;
import dev.blockcache.jmh.l1.OurKeys;
import dev.blockcache.jmh.l1.ThreeBytes;
import dev.blockcache.jmh.workload.SlotShape;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The floor of a get for a cache that finds a block's slot in a heap index and checks the key in the slot, as our
 * L2 does: a {@link ConcurrentHashMap} from {@link BlockKey} to the slot's offset, the slots at the stride of the
 * default bucket item that holds the block and our header ({@link SlotShape}) in one direct buffer, and per get one
 * 8-byte read at the slot's start (the key's {@code hash64()}, written there on insert) compared with the key, then
 * the block's first, middle and last byte read from the slot, as every competitor's get reads them. The key is come
 * by as the setup says ({@link OurKeys}).
 *
 * <p>So a get pays the key, the lookup, the slot's cache misses and the bytes it reads, and nothing else: no pin, no
 * view, no reference count, no statistics, no full-key check. It is not a cache (nothing is evicted, a block is never
 * read through it) and not a strict lower bound (an index leaner than a hash map of boxed offsets would pass it); it
 * measures how far a get's own work, beyond the memory it must touch, keeps a cache from the miss it cannot avoid.
 *
 * <p>Thread-safety: as {@link L2Adapter}: gets from any threads once the inserts are done.
 */
final class SlotReadFloorAdapter implements L2Adapter {
  private final String name;
  private final Keys names;
  private final BlockKey[] keys;
  private final int blockSize;
  /** Bytes from one slot's start to the next's. */
  private final int stride;
  /** Where the block starts in its slot: after a gap as long as our longest header. */
  private final int gap;
  private final OurKeys lookups;
  private final ConcurrentHashMap<BlockKey, Integer> offsets;
  private final ByteBuf slots;

  SlotReadFloorAdapter(String name, L2Setup setup) {
    this.name = name;
    this.names = new Keys(setup.blockSize());
    this.blockSize = setup.blockSize();
    this.keys = new BlockKey[setup.keys()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = BlockKey.of(names.file(i), names.offset(i));
    }
    this.gap = CopyFloorAdapter.longestHeader(names, keys.length);
    this.stride = SlotShape.itemSize(gap + blockSize);
    long bytes = (long) keys.length * stride;
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(name + ": " + keys.length + " slots of " + stride + " bytes exceed one buffer");
    }
    this.slots = Unpooled.directBuffer((int) bytes);
    this.lookups = new OurKeys(names, keys.length, setup.keySource());
    this.offsets = new ConcurrentHashMap<>(keys.length * 2);
  }

  /** Nothing to prepare: inserts happen only while populating a get benchmark. */
  @Override
  public void prepareSources() {
  }

  /** Writes block {@code i} and its key word into slot {@code i}, then maps the key to the slot. */
  @Override
  public boolean insert(int i) {
    int at = i * stride;
    slots.setLong(at, keys[i].hash64());
    slots.setBytes(at + gap, names.content(i));
    offsets.put(keys[i], at);
    return true;
  }

  @Override
  public void drain() {
  }

  @Override
  public int get(int i) {
    BlockKey key = lookups.key(i);
    Integer at = offsets.get(key);
    if (at == null || slots.getLong(at) != key.hash64()) {
      throw L2Adapter.miss(name, i);
    }
    return ThreeBytes.of(slots, at + gap, blockSize);
  }

  /** Overwrites slot {@code i}'s key word, as a slot reused for another block would; for tests. */
  void overwriteKeyWord(int i, long word) {
    slots.setLong(i * stride, word);
  }

  /** Bytes from one slot's start to the next's; for tests. */
  int stride() {
    return stride;
  }

  @Override
  public long blockCount() {
    return offsets.size();
  }

  @Override
  public void clear() {
    offsets.clear();
  }

  @Override
  public void close() {
    offsets.clear();
    slots.release();
  }
}
