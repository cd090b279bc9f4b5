package dev.blockcache.bucket;

import dev.blockcache.bucket.engine.ChannelIo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A {@link ChannelIo} for tests that fails on demand the way a dying disk does: EIO on reads, ENOSPC on writes, or
 * reads that stop short (part of the bytes, then end of file).
 *
 * <p>Thread-safety: the fault switches are volatile; safe for concurrent use.
 */
final class FaultyChannelIo implements ChannelIo {
  enum Fault { NONE, EIO, SHORT_READ }

  volatile Fault readFault = Fault.NONE;
  volatile boolean noSpace;

  @Override
  public int read(FileChannel channel, ByteBuffer dst, long position) throws IOException {
    switch (readFault) {
      case EIO:
        throw new IOException("Input/output error (injected EIO)");
      case SHORT_READ:
        if (dst.remaining() > 1) {
          int limit = dst.limit();
          dst.limit(dst.position() + dst.remaining() / 2);
          int n = channel.read(dst, position);
          dst.limit(limit);
          return n;
        }
        return -1;
      default:
        return channel.read(dst, position);
    }
  }

  @Override
  public int write(FileChannel channel, ByteBuffer src, long position) throws IOException {
    if (noSpace) {
      throw new IOException("No space left on device (injected ENOSPC)");
    }
    return channel.write(src, position);
  }
}
