package dev.blockcache.jmh.plan;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.StringJoiner;

/**
 * Joins the JSON result files of several JMH runs into one, as if one run had produced them: each file is a JSON
 * array of results, and the joined file is the array of all of them, in run order.
 *
 * <p>Thread-safety: stateless.
 */
public final class ResultFiles {
  private ResultFiles() {
  }

  /**
   * Writes the results of {@code parts} to {@code target}.
   *
   * @throws IllegalArgumentException when a part is not a JSON array
   */
  public static void join(List<Path> parts, Path target) throws IOException {
    StringJoiner results = new StringJoiner(",\n", "[\n", "\n]\n");
    for (Path part : parts) {
      String text = Files.readString(part, StandardCharsets.UTF_8).strip();
      if (!text.startsWith("[") || !text.endsWith("]")) {
        throw new IllegalArgumentException(part + " is not a JSON array of JMH results");
      }
      String inner = text.substring(1, text.length() - 1).strip();
      if (!inner.isEmpty()) {
        results.add(inner);
      }
    }
    Files.writeString(target, results.toString(), StandardCharsets.UTF_8);
  }
}
