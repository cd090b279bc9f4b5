package dev.blockcache.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;

/**
 * The package import cycles among a module's own packages: the package graph comes from the JDK's {@code jdeps}
 * over the compiled classes, so it counts every reference the compiler kept (imports, fully qualified names,
 * constants inlined from another package are invisible to it, as they are to the class loader), and the cycles are
 * its strongly connected components of more than one package.
 *
 * <p>Thread-safety: stateless.
 */
public final class PackageCycles {
  private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s");

  private PackageCycles() {}

  /**
   * The package graph of the classes under {@code classesDir} restricted to packages starting with {@code prefix}:
   * each package to the set of other such packages it references.
   */
  public static Map<String, Set<String>> graphOf(Path classesDir, String prefix) {
    if (!Files.isDirectory(classesDir)) {
      throw new IllegalArgumentException(classesDir + " is not a directory of compiled classes");
    }
    ToolProvider jdeps = ToolProvider.findFirst("jdeps")
        .orElseThrow(() -> new IllegalStateException("jdeps not found: run the tests on a JDK"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:package", "-filter:none",
        classesDir.toString());
    if (status != 0) {
      throw new IllegalStateException("jdeps failed (" + status + "): " + err);
    }
    Map<String, Set<String>> graph = new TreeMap<>();
    for (String line : out.toString().lines().toList()) {
      Matcher m = EDGE.matcher(line);
      if (m.find() && m.group(1).startsWith(prefix) && m.group(2).startsWith(prefix)
          && !m.group(1).equals(m.group(2))) {
        graph.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
      }
    }
    return graph;
  }

  /** Fails, naming each cycle and its packages' edges, if the module whose classes are in {@code target/classes} has one. */
  public static void assertNoCycle() {
    Map<String, Set<String>> graph = graphOf(Path.of("target", "classes"), "dev.blockcache");
    List<Set<String>> cycles = cyclesOf(graph);
    if (!cycles.isEmpty()) {
      StringBuilder text = new StringBuilder("package import cycles:");
      for (Set<String> cycle : cycles) {
        for (String p : cycle) {
          text.append("\n  ").append(p).append(" -> ").append(graph.get(p).stream().filter(cycle::contains).toList());
        }
      }
      throw new AssertionError(text.toString());
    }
  }

  /** The cycles of {@code graph}: each a sorted set of two or more packages that reach each other. */
  public static List<Set<String>> cyclesOf(Map<String, Set<String>> graph) {
    return new Components(graph).find();
  }

  /** Tarjan's strongly connected components, iterative so that no graph depth overflows the stack. */
  private static final class Components {
    private final Map<String, Set<String>> graph;
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> low = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final Set<String> onStack = new TreeSet<>();
    private final List<Set<String>> cycles = new ArrayList<>();
    private int next;

    Components(Map<String, Set<String>> graph) {
      this.graph = graph;
    }

    List<Set<String>> find() {
      for (String v : graph.keySet()) {
        if (!index.containsKey(v)) {
          visit(v);
        }
      }
      return cycles;
    }

    private void visit(String root) {
      Deque<Map.Entry<String, ArrayDeque<String>>> work = new ArrayDeque<>();
      enter(root, work);
      while (!work.isEmpty()) {
        Map.Entry<String, ArrayDeque<String>> top = work.peek();
        String v = top.getKey();
        String w = top.getValue().poll();
        if (w != null) {
          if (!index.containsKey(w)) {
            enter(w, work);
          } else if (onStack.contains(w)) {
            low.put(v, Math.min(low.get(v), index.get(w)));
          }
          continue;
        }
        work.pop();
        if (!work.isEmpty()) {
          String parent = work.peek().getKey();
          low.put(parent, Math.min(low.get(parent), low.get(v)));
        }
        if (low.get(v).equals(index.get(v))) {
          Set<String> component = new TreeSet<>();
          String popped;
          do {
            popped = stack.pop();
            onStack.remove(popped);
            component.add(popped);
          } while (!popped.equals(v));
          if (component.size() > 1) {
            cycles.add(component);
          }
        }
      }
    }

    private void enter(String v, Deque<Map.Entry<String, ArrayDeque<String>>> work) {
      index.put(v, next);
      low.put(v, next);
      next++;
      stack.push(v);
      onStack.add(v);
      work.push(Map.entry(v, new ArrayDeque<>(graph.getOrDefault(v, Set.of()))));
    }
  }
}
