package dev.blockcache.sim.trace;

import java.io.IOException;
import java.io.InputStream;

/**
 * A binary trace: back-to-back big-endian signed integers of {@code width} bytes (4 or 8), one key per access. A
 * trailing partial record fails the read.
 *
 * <p>Thread-safety: stateless.
 */
final class BinaryFormat implements TraceFormat.KeyDecoder {
  private final int width;

  BinaryFormat(int width) {
    if (width != Integer.BYTES && width != Long.BYTES) {
      throw new IllegalArgumentException("record width " + width + " bytes; accepted: 4, 8");
    }
    this.width = width;
  }

  @Override
  public void decode(InputStream in, LongList keys, int maxEvents) throws IOException {
    byte[] record = new byte[width];
    while (keys.size() < maxEvents) {
      int read = in.readNBytes(record, 0, width);
      if (read == 0) {
        return;
      }
      if (read < width) {
        throw new IOException("truncated record: " + read + " of " + width + " bytes after " + keys.size()
            + " keys");
      }
      keys.add(width == Long.BYTES ? bigEndianLong(record) : bigEndianInt(record));
    }
  }

  private static long bigEndianLong(byte[] b) {
    long value = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      value = (value << 8) | (b[i] & 0xff);
    }
    return value;
  }

  private static int bigEndianInt(byte[] b) {
    return ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
  }
}
