package dev.blockcache.sim.trace;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * Opens a trace file, decompressing it by its name: {@code .gz} with the JDK's gzip, {@code .xz} with
 * {@code org.tukaani:xz}, anything else read as it is.
 *
 * <p>Thread-safety: stateless.
 */
final class TraceStreams {
  /** Read buffer in bytes: large enough that decompression, not the file system, sets the pace. */
  private static final int BUFFER_BYTES = 1 << 16;

  private TraceStreams() {}

  /** A buffered stream of {@code file}'s decompressed bytes; the caller closes it. */
  static InputStream open(Path file) throws IOException {
    InputStream raw = new BufferedInputStream(Files.newInputStream(file), BUFFER_BYTES);
    String name = file.getFileName().toString();
    try {
      if (name.endsWith(".gz")) {
        return new BufferedInputStream(new GZIPInputStream(raw, BUFFER_BYTES), BUFFER_BYTES);
      }
      if (name.endsWith(".xz")) {
        return new BufferedInputStream(new XZInputStream(raw), BUFFER_BYTES);
      }
      return raw;
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }
}
