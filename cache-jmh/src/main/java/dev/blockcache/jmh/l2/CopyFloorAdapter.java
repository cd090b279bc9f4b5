package dev.blockcache.jmh.l2;

import dev.blockcache.api.BlockKey;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.jmh.l1.Keys;
import dev.blockcache.jmh.l1.ThreeBytes;
import dev.blockcache.jmh.workload.SlotShape;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The floor of an insert: block {@code i} is copied into slot {@code i} of one direct buffer allocated up front, as a
 * bucket cache copies a block into an {@code offheap} slot, with no index, no allocator, no queue and no header
 * bytes. A cache that copies each block once into off-heap memory on one thread cannot take a burst faster (several
 * threads copying at once may pass it while memory bandwidth lasts, so a writer-pool cache such as HBase's can come
 * slightly above it at large blocks), so it bounds what the insert benchmark's ratios can reach on the machine it
 * runs on. Two shapes:
 * <ul>
 *   <li>{@link #packed}: slots of exactly the block size, back to back and page-aligned: the fastest copy there
 *       is.</li>
 *   <li>{@link #slotShaped}: slots at the stride of the default bucket item that holds the block and our header
 *       (5 KiB for 4 KiB, 65 KiB for 64 KiB; {@link SlotShape}), the block placed after a header-sized gap that is not
 *       written. This is where any bucket cache with HBase's default sizes puts its blocks, HBase's included: a
 *       4 KiB block then spans two pages, which makes the copy slower than the packed one.</li>
 * </ul>
 * A get reads three bytes of a copied slot; nothing is reference counted.
 *
 * <p>Thread-safety: as {@link L2Adapter}; {@link #get} reads only fields that {@link #insert} set before the
 * benchmark's own synchronisation (it is an insert floor, not a concurrent cache).
 */
final class CopyFloorAdapter implements L2Adapter {
  private final String name;
  private final Keys names;
  private final int blockSize;
  private final int keyCount;
  /** Bytes from one slot's start to the next's. */
  private final int stride;
  /** Bytes left unwritten before each block: where a cache's header would go. */
  private final int gap;
  private final ByteBuf slots;
  private ByteBuf[] sources;
  private long copied;

  /** Slots of exactly the block size, back to back. */
  static CopyFloorAdapter packed(String name, L2Setup setup) {
    return new CopyFloorAdapter(name, setup, new Keys(setup.blockSize()), setup.blockSize(), 0);
  }

  /** Slots at the default bucket item's stride, each block after a gap as long as our header for its key. */
  static CopyFloorAdapter slotShaped(String name, L2Setup setup) {
    Keys names = new Keys(setup.blockSize());
    int header = longestHeader(names, setup.keys());
    return new CopyFloorAdapter(name, setup, names, SlotShape.itemSize(header + setup.blockSize()), header);
  }

  /** The longest of our slot headers over the first {@code keys} keys of {@code names}. */
  static int longestHeader(Keys names, int keys) {
    int header = 0;
    for (int i = 0; i < Math.min(keys, Keys.FILES); i++) { // keys 0 .. FILES - 1 name every file once
      header = Math.max(header, BlockHeader.headerLength(BlockKey.of(names.file(i), names.offset(i))));
    }
    return header;
  }

  private CopyFloorAdapter(String name, L2Setup setup, Keys names, int stride, int gap) {
    this.name = name;
    this.names = names;
    this.blockSize = setup.blockSize();
    this.keyCount = setup.keys();
    this.stride = stride;
    this.gap = gap;
    long bytes = (long) keyCount * stride;
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(name + ": " + keyCount + " slots of " + stride + " bytes exceed one buffer");
    }
    this.slots = Unpooled.directBuffer((int) bytes);
  }

  @Override
  public void prepareSources() {
    sources = SourceBuffers.wrapAll(names, keyCount);
  }

  @Override
  public boolean insert(int i) {
    if (sources != null) {
      copy(i, sources[i]);
    } else {
      ByteBuf source = SourceBuffers.wrap(names, i);
      try {
        copy(i, source);
      } finally {
        source.release();
      }
    }
    copied++;
    return true;
  }

  private void copy(int i, ByteBuf source) {
    slots.setBytes(i * stride + gap, source, source.readerIndex(), source.readableBytes());
  }

  /** Bytes from one slot's start to the next's; for tests. */
  int stride() {
    return stride;
  }

  /** Bytes left unwritten before each block; for tests. */
  int gap() {
    return gap;
  }

  /** Slot {@code i}'s bytes (a view, valid until {@link #close()}); for tests. */
  ByteBuf slot(int i) {
    return slots.slice(i * stride + gap, blockSize);
  }

  @Override
  public void drain() {
  }

  @Override
  public int get(int i) {
    if (i >= copied) {
      throw L2Adapter.miss(name, i);
    }
    return ThreeBytes.of(slots, i * stride + gap, blockSize);
  }

  @Override
  public long blockCount() {
    return copied;
  }

  @Override
  public void clear() {
    copied = 0;
  }

  @Override
  public void close() {
    slots.release();
    SourceBuffers.releaseAll(sources);
  }
}
