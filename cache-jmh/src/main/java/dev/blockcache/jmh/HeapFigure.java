package dev.blockcache.jmh;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.openjdk.jmh.annotations.Fork;

/**
 * Heap figures taken the way the heap-per-entry mains take them: each competitor in a JVM of its own, started with
 * the benchmarks' fork flags, reporting one figure on a line of its output; inside it, used heap after full GCs.
 *
 * <p>Protocol: the parent runs {@code main --child <competitor> <entries>}; the child prints
 * {@link #childResult(double)}; every other line the child prints (but its INFO log lines) is echoed, prefixed by the
 * competitor's name.
 *
 * <p>Thread-safety: stateless.
 */
public final class HeapFigure {
  private static final String RESULT = "heapBytesPerEntry=";

  private HeapFigure() {
  }

  /** The line a child prints to hand {@code figure} to its parent. */
  public static String childResult(double figure) {
    return RESULT + figure;
  }

  /**
   * Runs {@code mainClass} as {@code --child competitor entries} in a new JVM with the benchmarks' fork flags and
   * returns the figure it printed.
   *
   * @throws IllegalStateException when the child exits with an error or prints no figure
   */
  public static double inChild(Class<?> mainClass, String competitor, int entries)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(Arrays.asList(BenchmarkDefaults.class.getAnnotation(Fork.class).jvmArgsAppend()));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName(),
        "--child", competitor, Integer.toString(entries)));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    double result = Double.NaN;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith(RESULT)) {
          result = Double.parseDouble(line.substring(RESULT.length()));
        } else if (!line.contains(" INFO ")) {
          System.out.println("  [" + competitor + "] " + line);
        }
      }
    }
    int exit = process.waitFor();
    if (exit != 0 || Double.isNaN(result)) {
      throw new IllegalStateException(competitor + ": measuring JVM exited with " + exit + " and no figure");
    }
    return result;
  }

  /** Used heap after full GCs, once two in a row agree within 64 KiB (at most 10). */
  public static long settledHeap() {
    long previous = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      System.gc();
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (Math.abs(previous - used) < 64 * 1024) {
        return used;
      }
      previous = used;
    }
    return previous;
  }
}
