package dev.blockcache.jmh.scale;

import dev.blockcache.jmh.BenchmarkDefaults;
import dev.blockcache.jmh.l2.L2HBaseScale;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Fork;

/**
 * Experiment 5, scale: one L2 filled to 1M, 8M and 64M blocks of 64 KiB (and 64M of 4 KiB), every figure of a size
 * from child JVMs of its own ({@link ScaleChild}), HBase 2.6.4's BucketCache at the sizes it holds in the same heap
 * ({@link L2HBaseScale}), and the report ({@code ScaleReport}).
 *
 * <p>Cells whose data does not fit the disk run on the {@code HeaderSlotEngine} measuring device; the largest size
 * whose cache file fits the free disk (with a margin) runs again on a real {@code file:} engine. A child is killed
 * with {@code SIGKILL} ({@link Process#destroyForcibly()}) to test the restart after an unclean stop.
 *
 * <p>Run (docs/benchmarks.md): {@code java -cp <cache-jmh classpath> dev.blockcache.jmh.scale.ScaleExperiment
 * [--sizes 1,8,64] [--hbase 1,8] [--file-cell] [--heap-only 1,8,64] [--out docs/results] [--work /tmp]};
 * {@code --merge} adds to the figures already in {@code experiment5-scale.properties}, {@code --report-only}
 * rewrites the report from them.
 *
 * <p>Thread-safety: a main.
 */
public final class ScaleExperiment {
  /** Free disk left to others when a real {@code file:} cell is placed. */
  private static final long DISK_MARGIN = 12L << 30;
  private static final int MIB_BLOCKS = 1 << 20;

  private final Path work;
  private final Map<String, String> results = new TreeMap<>();

  private ScaleExperiment(Path work) {
    this.work = work;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = options(args);
    Path out = Path.of(opts.getOrDefault("--out", "docs/results"));
    Path props = out.resolve(ScaleReport.NAME + ".properties");
    ScaleExperiment run = new ScaleExperiment(Path.of(opts.getOrDefault("--work",
        System.getProperty("java.io.tmpdir"))));
    if (opts.containsKey("--report-only")) {
      run.load(props);
    } else {
      if (Files.exists(props) && opts.containsKey("--merge")) {
        run.load(props);
      }
      run.machine();
      for (String m : opts.getOrDefault("--sizes", "1,8,64").split(",", -1)) {
        if (m.isBlank()) {
          continue;
        }
        run.cell(new ScaleCell(Integer.parseInt(m) * MIB_BLOCKS, 64 * 1024, ScaleCell.Engine.HEADERS, null));
      }
      if (opts.containsKey("--heap-only")) {
        for (String m : opts.get("--heap-only").split(",", -1)) {
          run.heapOnly(new ScaleCell(Integer.parseInt(m) * MIB_BLOCKS, 64 * 1024, ScaleCell.Engine.HEADERS, null));
        }
      }
      if (opts.containsKey("--small-blocks")) {
        run.cell(new ScaleCell(64 * MIB_BLOCKS, 4 * 1024, ScaleCell.Engine.HEADERS, null));
      }
      if (opts.containsKey("--file-cell")) {
        run.fileCell();
      }
      for (String m : opts.getOrDefault("--hbase", "1,8").split(",", -1)) {
        if (!m.isBlank()) {
          run.hbase(Integer.parseInt(m) * MIB_BLOCKS);
        }
      }
      run.save(props);
    }
    ScaleReport.write(out, run.results);
  }

  /** The machine's cores, memory and load now, for the report's machine line. */
  private void machine() throws IOException {
    results.put("machine.cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
    for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
      if (line.startsWith("MemTotal:")) {
        long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
        results.put("machine.memory", String.format(java.util.Locale.ROOT, "%.1f GiB", kb / 1048576.0));
      }
    }
    String[] load = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+", -1);
    results.put("machine.load", load[0] + " / " + load[1] + " / " + load[2]);
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> opts = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      boolean valued = i + 1 < args.length && !args[i + 1].startsWith("--");
      opts.put(args[i], valued ? args[++i] : "");
    }
    return opts;
  }

  /**
   * The largest power-of-two count of 64 KiB blocks (128K to 64M) whose cache file fits the free disk (less a
   * margin for others), on {@code file:}.
   */
  private void fileCell() throws IOException, InterruptedException {
    long free = Files.getFileStore(work).getUsableSpace() - DISK_MARGIN;
    int best = 0;
    for (int blocks = 1 << 17; blocks <= 64 * MIB_BLOCKS; blocks *= 2) {
      if (new ScaleCell(blocks, 64 * 1024, ScaleCell.Engine.FILE, work).diskBytes() <= free) {
        best = blocks;
      }
    }
    if (best == 0) {
      System.out.println("no file: cell fits the free disk (" + free + " bytes after the margin)");
      return;
    }
    cell(new ScaleCell(best, 64 * 1024, ScaleCell.Engine.FILE, null));
  }

  /** The three phases of {@code spec} (its dir is ignored: each cell gets a fresh one, deleted after). */
  private void cell(ScaleCell spec) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory(work, "scale-cell");
    ScaleCell cell = new ScaleCell(spec.blocks(), spec.blockSize(), spec.engine(), dir);
    String id = id(cell);
    String heap = cell.blocks() > 16 * MIB_BLOCKS ? "5g" : "2g";
    System.out.println("== " + cell.label() + " in " + dir);
    try {
      Map<String, String> fill = child(ScaleChild.class, heap, phase("fill", cell, cell.blocks()), false);
      Map<String, String> restart = child(ScaleChild.class, heap,
          phase("restart", cell, (long) Double.parseDouble(fill.get("keys_inserted"))), true);
      Map<String, String> recover = child(ScaleChild.class, heap,
          phase("recover", cell, (long) Double.parseDouble(restart.get("keys_inserted"))), false);
      record(id, fill);
      record(id, restart);
      record(id, recover);
      results.put(id + ".label", cell.label());
      results.put(id + ".blocks", Integer.toString(cell.blocks()));
      results.put(id + ".block_size", Integer.toString(cell.blockSize()));
      results.put(id + ".engine", cell.engine().name());
      results.put(id + ".heap", heap);
    } finally {
      deleteTree(dir);
    }
  }

  /** The {@code heap} phase alone: forced-GC and live-object heap per block of a filled cell. */
  private void heapOnly(ScaleCell spec) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory(work, "scale-heap");
    ScaleCell cell = new ScaleCell(spec.blocks(), spec.blockSize(), spec.engine(), dir);
    try {
      System.out.println("== heap of " + cell.label() + " in " + dir);
      String heap = cell.blocks() > 16 * MIB_BLOCKS ? "5g" : "2g";
      record(id(cell), child(ScaleChild.class, heap, phase("heap", cell, cell.blocks()), false));
    } finally {
      deleteTree(dir);
    }
  }

  private void hbase(int blocks) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory(work, "scale-hbase");
    try {
      System.out.println("== HBase BucketCache, " + blocks + " blocks, in " + dir);
      // Its restore holds the parsed map beside the one it builds: 5 GiB is not enough at 8M.
      String heap = blocks > 4 * MIB_BLOCKS ? "10g" : "2g";
      Map<String, String> r = child(L2HBaseScale.class, heap, List.of(Integer.toString(blocks), dir.toString()),
          false);
      record("hbase." + blocks / MIB_BLOCKS + "M", r);
      results.put("hbase." + blocks / MIB_BLOCKS + "M.heap", heap);
    } finally {
      deleteTree(dir);
    }
  }

  static String id(ScaleCell cell) {
    String size = cell.blocks() % MIB_BLOCKS == 0 ? cell.blocks() / MIB_BLOCKS + "M" : cell.blocks() / 1024 + "K";
    return "ours." + size + "." + cell.blockSize() / 1024 + "k."
        + cell.engine().name().toLowerCase(java.util.Locale.ROOT);
  }

  private static List<String> phase(String phase, ScaleCell cell, long inserted) {
    List<String> a = new ArrayList<>();
    a.add(phase);
    a.addAll(Arrays.asList(cell.args()));
    a.add(Long.toString(inserted));
    return a;
  }

  private void record(String id, Map<String, String> values) {
    values.forEach((k, v) -> {
      if (!k.equals("ready") && !k.endsWith("sink")) {
        results.put(id + "." + k, v);
      }
    });
  }

  /**
   * Runs {@code main} with {@code args} in a JVM of {@code heap} (fixed and pre-touched, the benchmarks' other fork
   * flags) and returns its {@code key=value} lines; with {@code killOnReady} the child is killed with SIGKILL once
   * it prints {@code ready=...}.
   */
  private static Map<String, String> child(Class<?> main, String heap, List<String> args, boolean killOnReady)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String flag : BenchmarkDefaults.class.getAnnotation(Fork.class).jvmArgsAppend()) {
      command.add(flag.startsWith("-Xm") ? flag.substring(0, 4) + heap : flag);
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(args);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    Map<String, String> values = new LinkedHashMap<>();
    boolean killed = false;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = killed ? null : out.readLine()) {
        int eq = line.indexOf('=');
        if (eq > 0 && line.indexOf(' ') < 0) {
          values.put(line.substring(0, eq), line.substring(eq + 1));
          System.out.println("  " + line);
          if (killOnReady && line.startsWith("ready=")) {
            process.destroyForcibly(); // SIGKILL: no shutdown hook, no close, no final checkpoint
            killed = true;
          }
        } else if (!line.contains(" INFO ")) {
          System.out.println("  | " + line);
        }
      }
    }
    int exit = process.waitFor();
    if (killOnReady ? !killed : exit != 0) {
      throw new IllegalStateException(main.getSimpleName() + " " + args + " exited with " + exit);
    }
    return values;
  }

  private void load(Path props) throws IOException {
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(props, StandardCharsets.UTF_8)) {
      p.load(in);
    }
    p.forEach((k, v) -> results.put((String) k, (String) v));
  }

  private void save(Path props) throws IOException {
    Files.createDirectories(props.getParent());
    try (Writer w = Files.newBufferedWriter(props, StandardCharsets.UTF_8)) {
      for (Map.Entry<String, String> e : results.entrySet()) {
        w.write(e.getKey() + "=" + e.getValue() + "\n");
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
