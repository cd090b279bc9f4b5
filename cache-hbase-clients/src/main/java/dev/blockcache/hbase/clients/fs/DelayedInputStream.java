package dev.blockcache.hbase.clients.fs;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;

/**
 * An HFile's input stream whose reads cost a modelled device's time: every positional read (HBase's pread, which gets
 * and short scans use) is one device read; sequential reads (long scans, compactions) cost one device read per
 * {@value #READAHEAD_BYTES} bytes consumed, as a readahead of that size would.
 *
 * <p>Thread-safety: positional reads are safe for concurrent use, as the wrapped stream's are; sequential reads and
 * seeks are for one thread at a time, as for any {@link FSInputStream}.
 */
final class DelayedInputStream extends FSInputStream {
  /** Bytes of a sequential read that one device read serves: a typical readahead window. */
  static final int READAHEAD_BYTES = 64 * 1024;

  private final FSDataInputStream in;
  private final ModelledDevice device;
  private long sequentialBytes;

  DelayedInputStream(FSDataInputStream in, ModelledDevice device) {
    this.in = in;
    this.device = device;
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    return device.read(() -> in.read(position, buffer, offset, length));
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    device.read(() -> {
      in.readFully(position, buffer, offset, length);
      return length;
    });
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      consumed(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = in.read(buffer, offset, length);
    if (n > 0) {
      consumed(n);
    }
    return n;
  }

  /** Books one device read each time another {@value #READAHEAD_BYTES} sequential bytes have been consumed. */
  private void consumed(int bytes) throws IOException {
    long before = sequentialBytes / READAHEAD_BYTES;
    sequentialBytes += bytes;
    for (long i = before; i < sequentialBytes / READAHEAD_BYTES; i++) {
      device.read(() -> 0);
    }
  }

  @Override
  public void seek(long position) throws IOException {
    in.seek(position);
  }

  @Override
  public long getPos() throws IOException {
    return in.getPos();
  }

  @Override
  public boolean seekToNewSource(long targetPos) throws IOException {
    return in.seekToNewSource(targetPos);
  }

  @Override
  public int available() throws IOException {
    return in.available();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
