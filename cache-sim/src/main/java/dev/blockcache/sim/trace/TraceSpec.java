package dev.blockcache.sim.trace;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A trace named on the command line, in one of two forms:
 * <ul>
 *   <li>{@code FORMAT/NAME}, such as {@code lirs/multi1}: a bundled trace, the file of the traces directory's
 *       {@code FORMAT} sub-directory whose name is {@code NAME} or starts with {@code NAME.}
 *       ({@code lirs/multi1.trace.gz}); the directory names the format.</li>
 *   <li>{@code FORMAT:PATH}, such as {@code text:/data/keys.txt.gz}: any file, in the format named.</li>
 * </ul>
 *
 * <p>Thread-safety: immutable.
 *
 * @param name the name the trace is reported under
 * @param format how the file encodes keys
 * @param file the trace file (compressed or not, see {@link TraceStreams})
 */
public record TraceSpec(String name, TraceFormat format, Path file) {

  /** Resolves {@code spec} (either form above) against {@code tracesDir}, the bundled traces' root. */
  public static TraceSpec parse(String spec, Path tracesDir) {
    int colon = spec.indexOf(':');
    if (colon > 0) {
      Path file = Path.of(spec.substring(colon + 1));
      return new TraceSpec(file.getFileName().toString(), TraceFormat.of(spec.substring(0, colon)), file);
    }
    int slash = spec.indexOf('/');
    if (slash <= 0 || slash == spec.length() - 1) {
      throw new IllegalArgumentException("trace '" + spec + "': expected FORMAT/NAME (a bundled trace, such as "
          + "lirs/multi1) or FORMAT:PATH; formats: " + TraceFormat.ids());
    }
    TraceFormat format = TraceFormat.of(spec.substring(0, slash));
    return new TraceSpec(spec, format, bundled(tracesDir.resolve(format.id()), spec.substring(slash + 1), spec));
  }

  private static Path bundled(Path dir, String name, String spec) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("trace '" + spec + "': no directory " + dir
          + " (unpack the traces first: see docs/benchmarks.md, Hit-ratio simulator)");
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> matches = files
          .filter(f -> f.getFileName().toString().equals(name) || f.getFileName().toString().startsWith(name + "."))
          .sorted()
          .toList();
      if (matches.size() != 1) {
        throw new IllegalArgumentException("trace '" + spec + "': " + matches.size() + " files in " + dir
            + " are named " + name + " or " + name + ".*, expected exactly one: " + matches);
      }
      return matches.get(0);
    } catch (IOException e) {
      throw new UncheckedIOException("trace '" + spec + "': cannot list " + dir, e);
    }
  }

  /** Reads at most {@code maxEvents} accesses of the trace into memory. */
  public Trace read(int maxEvents) throws IOException {
    if (maxEvents <= 0) {
      throw new IllegalArgumentException("maxEvents " + maxEvents + ": expected a positive number");
    }
    LongList keys = new LongList();
    try (InputStream in = TraceStreams.open(file)) {
      format.decode(in, keys, maxEvents);
    } catch (IOException e) {
      throw new IOException("trace " + name + " (" + file + ", " + format.id() + "): " + e.getMessage(), e);
    }
    if (keys.size() == 0) {
      throw new IOException("trace " + name + " (" + file + ") holds no access");
    }
    return new Trace(name, keys.toArray());
  }
}
