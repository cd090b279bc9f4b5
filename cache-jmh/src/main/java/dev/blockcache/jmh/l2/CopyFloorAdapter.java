package dev.blockcache.jmh.l2;

import dev.blockcache.jmh.l1.Keys;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The floor of an insert: block {@code i} is copied into slot {@code i} of one direct buffer allocated up front, as a
 * bucket cache copies a block into an {@code offheap} slot, with no index, no allocator, no queue and no header. A
 * cache that copies each block once into off-heap memory on one thread cannot take a burst faster (several threads
 * copying at once may pass it while memory bandwidth lasts: HBase's three writers measured up to 1.07× it at 64 KiB),
 * so it bounds what the insert benchmark's ratios can reach on this machine. A get returns the length of a copied slot; nothing is reference
 * counted.
 *
 * <p>Thread-safety: as {@link L2Adapter}; {@link #get} reads only fields that {@link #insert} set before the
 * benchmark's own synchronisation (it is an insert floor, not a concurrent cache).
 */
final class CopyFloorAdapter implements L2Adapter {
  private final String name;
  private final Keys names;
  private final int blockSize;
  private final int keyCount;
  private final ByteBuf slots;
  private ByteBuf[] sources;
  private long copied;

  CopyFloorAdapter(String name, L2Setup setup) {
    this.name = name;
    this.names = new Keys(setup.blockSize());
    this.blockSize = setup.blockSize();
    this.keyCount = setup.keys();
    long bytes = (long) keyCount * blockSize;
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(name + ": " + keyCount + " blocks of " + blockSize
          + " bytes exceed one buffer");
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
      copy(i, source);
      source.release();
    }
    copied++;
    return true;
  }

  private void copy(int i, ByteBuf source) {
    slots.setBytes(i * blockSize, source, source.readerIndex(), source.readableBytes());
  }

  /** Slot {@code i}'s bytes (a view, valid until {@link #close()}); for tests. */
  ByteBuf slot(int i) {
    return slots.slice(i * blockSize, blockSize);
  }

  @Override
  public void drain() {
  }

  @Override
  public int get(int i) {
    if (i >= copied) {
      throw L2Adapter.miss(name, i);
    }
    return blockSize;
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
