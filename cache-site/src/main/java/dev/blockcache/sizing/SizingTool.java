package dev.blockcache.sizing;

import dev.blockcache.config.ByteSizeText;
import dev.blockcache.config.ConfigException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sizing report on the command line: reads an hbase-site.xml, sizes it for the machine described by the
 * arguments ({@link CacheSizer}) and prints the report ({@link SizingText}).
 *
 * <pre>
 * SizingTool --site=/etc/hbase/conf/hbase-site.xml --heap=32g --ram=128g
 *            [--direct-memory=40g] [--disk=2t[,2t...]] [--reserved-ram=8g] [--block-size=64k] [--file-name-bytes=32]
 * </pre>
 * Sizes take an optional k, m, g or t suffix (powers of 1024), as {@code -Xmx} does. Exit status: 0 when the checks
 * pass, 1 when the report lists problems, 2 for arguments or a site that cannot be used (the error names the argument
 * or key, the value and what is accepted).
 *
 * <p>Thread-safety: stateless.
 */
public final class SizingTool {
  static final String USAGE = "usage: SizingTool --site=PATH --heap=SIZE --ram=SIZE [--direct-memory=SIZE]"
      + " [--disk=SIZE[,SIZE...]] [--reserved-ram=SIZE] [--block-size=SIZE] [--file-name-bytes=N]\n"
      + "  SIZE: a whole number with an optional k, m, g or t suffix (powers of 1024), e.g. 32g\n"
      + "  --heap: the region server's -Xmx; --direct-memory: its -XX:MaxDirectMemorySize (default: the heap);\n"
      + "  --ram: the machine's RAM; --disk: the disk under each file of a file engine (one size, or one per file);\n"
      + "  --reserved-ram: RAM for the OS and other processes (default 0); --block-size: default 64k;\n"
      + "  --file-name-bytes: length of the file names in block keys (default 32, an HBase store file name)";
  private static final List<String> NAMES = List.of("--site", "--heap", "--ram", "--direct-memory", "--disk",
      "--reserved-ram", "--block-size", "--file-name-bytes");

  private SizingTool() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the tool; returns the exit status (0 fits, 1 problems, 2 bad input). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      Map<String, String> values = parse(args);
      Path site = Path.of(required(values, "--site"));
      Machine.Builder machine = Machine.builder(ByteSizeText.parse("--heap", required(values, "--heap")),
          ByteSizeText.parse("--ram", required(values, "--ram")));
      if (values.containsKey("--direct-memory")) {
        machine.directMemory(ByteSizeText.parse("--direct-memory", values.get("--direct-memory")));
      }
      if (values.containsKey("--disk")) {
        List<Long> disks = new ArrayList<>();
        for (String disk : values.get("--disk").split(",", -1)) {
          disks.add(ByteSizeText.parse("--disk", disk));
        }
        machine.disks(disks);
      }
      if (values.containsKey("--reserved-ram")) {
        String text = values.get("--reserved-ram").trim();
        machine.reservedRam(text.equals("0") ? 0 : ByteSizeText.parse("--reserved-ram", text));
      }
      if (values.containsKey("--block-size")) {
        machine.blockSize(ByteSizeText.parse("--block-size", values.get("--block-size")));
      }
      if (values.containsKey("--file-name-bytes")) {
        machine.fileNameBytes(ByteSizeText.parse("--file-name-bytes", values.get("--file-name-bytes")));
      }
      SizingReport report = CacheSizer.size(site, machine.build());
      out.print(SizingText.render(site.toString(), report));
      return report.problems().isEmpty() ? 0 : 1;
    } catch (ConfigException e) {
      err.println(e.getMessage());
      err.println(USAGE);
      return 2;
    }
  }

  /** {@code --name=value} or {@code --name value} pairs, each name known and given once. */
  private static Map<String, String> parse(String[] args) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg : arg.substring(0, eq);
      if (!NAMES.contains(name)) {
        throw new ConfigException("argument", arg, "one of " + String.join(", ", NAMES));
      }
      String value;
      if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new ConfigException(name, "(missing)", "a value after " + name);
      }
      if (values.put(name, value) != null) {
        throw new ConfigException(name, value, "one " + name + " argument, not several");
      }
    }
    return values;
  }

  private static String required(Map<String, String> values, String name) {
    String value = values.get(name);
    if (value == null || value.isBlank()) {
      throw new ConfigException(name, "(missing)", "a value: " + name + " is required");
    }
    return value;
  }
}
