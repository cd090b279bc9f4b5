package dev.blockcache.sim.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A text trace: one access per line, parsed by a {@link LineParser}. Lines are trimmed first; a blank line is no
 * access. A line the parser rejects fails the read with its line number.
 *
 * <p>Thread-safety: stateless.
 */
final class LineFormat implements TraceFormat.KeyDecoder {
  /** Parses one trimmed, non-blank line. */
  interface LineParser {
    /** Adds the line's key to {@code keys}, or nothing when the line is no access (a separator). */
    void parse(String line, LongList keys);
  }

  private final LineParser parser;

  LineFormat(LineParser parser) {
    this.parser = parser;
  }

  @Override
  public void decode(InputStream in, LongList keys, int maxEvents) throws IOException {
    BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
    String line;
    long number = 0;
    while (keys.size() < maxEvents && (line = reader.readLine()) != null) {
      number++;
      String trimmed = line.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      try {
        parser.parse(trimmed, keys);
      } catch (RuntimeException e) {
        throw new IOException("line " + number + " '" + abbreviate(trimmed) + "': " + e.getMessage(), e);
      }
    }
  }

  private static String abbreviate(String line) {
    return line.length() <= 80 ? line : line.substring(0, 77) + "...";
  }
}
