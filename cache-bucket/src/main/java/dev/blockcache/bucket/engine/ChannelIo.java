package dev.blockcache.bucket.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The positional reads and writes a file engine issues, one call per system call. The plain implementation calls the
 * channel; decorators sit between the engine and the channel to model a device
 * (the experiments' device models) or to inject faults in tests.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use; {@link FileChannel}'s positional methods are.
 */
public interface ChannelIo {
  /** Calls {@link FileChannel#read(ByteBuffer, long)} and nothing else. */
  ChannelIo PLAIN = new ChannelIo() {
    @Override
    public int read(FileChannel channel, ByteBuffer dst, long position) throws IOException {
      return channel.read(dst, position);
    }

    @Override
    public int write(FileChannel channel, ByteBuffer src, long position) throws IOException {
      return channel.write(src, position);
    }
  };

  /** As {@link FileChannel#read(ByteBuffer, long)}: bytes read, possibly fewer than asked, or -1 at end of file. */
  int read(FileChannel channel, ByteBuffer dst, long position) throws IOException;

  /** As {@link FileChannel#write(ByteBuffer, long)}: bytes written, possibly fewer than asked. */
  int write(FileChannel channel, ByteBuffer src, long position) throws IOException;
}
