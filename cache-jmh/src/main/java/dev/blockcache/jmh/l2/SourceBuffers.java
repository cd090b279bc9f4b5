package dev.blockcache.jmh.l2;

import dev.blockcache.jmh.l1.Keys;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Source blocks of the adapters that insert netty buffers: key {@code i}'s content ({@link Keys#content}) wrapped in
 * a heap {@link ByteBuf}, each holding one reference that its owner releases.
 *
 * <p>Thread-safety: stateless.
 */
final class SourceBuffers {
  private SourceBuffers() {}

  /** Key {@code i}'s content in a new buffer; the caller owns its one reference. */
  static ByteBuf wrap(Keys names, int i) {
    return Unpooled.wrappedBuffer(names.content(i));
  }

  /** The sources of keys {@code 0 .. count - 1}, built now; the caller owns them (see {@link #releaseAll}). */
  static ByteBuf[] wrapAll(Keys names, int count) {
    ByteBuf[] sources = new ByteBuf[count];
    for (int i = 0; i < count; i++) {
      sources[i] = wrap(names, i);
    }
    return sources;
  }

  /** Releases every buffer of {@code sources}; nothing if it is null. */
  static void releaseAll(ByteBuf[] sources) {
    if (sources != null) {
      for (ByteBuf b : sources) {
        b.release();
      }
    }
  }
}
