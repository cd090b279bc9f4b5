package dev.blockcache.hbase.clients;

import com.codahale.metrics.Snapshot;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * HBase's own PerformanceEvaluation (2.6.0's, from hbase-mapreduce's test jar; the registry has none for 2.6.4) run
 * in this JVM with {@code --nomapred} against the mini cluster: its option parser, its table check and its local
 * client threads, as {@code hbase pe --nomapred ...} runs them. Its entry points are package-private, so they are
 * reached by reflection; its per-client results (duration, latency histogram) come back as they are.
 *
 * <p>Rows are PE's: 26-byte zero-padded keys, one column {@code info:0} of {@value #VALUE_BYTES} B.
 *
 * <p>Thread-safety: one run at a time per caller; PE runs its own client threads.
 */
final class PeRun {
  static final String TABLE = "TestTable";
  static final int VALUE_BYTES = 1_000;
  private static final Class<?> PE;
  private static final Class<?> OPTIONS;

  static {
    try {
      PE = Class.forName("org.apache.hadoop.hbase.PerformanceEvaluation");
      OPTIONS = Class.forName("org.apache.hadoop.hbase.PerformanceEvaluation$TestOptions");
    } catch (ClassNotFoundException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private PeRun() {}

  /**
   * One PE command's figures over all its client threads.
   *
   * @param rowsPerSecond rows read (or written) per second, all clients (a multi-get of 100 is 100 rows)
   * @param p50Micros median of the per-client medians, as PE reports per client
   * @param p99Micros the largest per-client 99th percentile
   */
  record Result(String command, int threads, long rows, double rowsPerSecond, double p50Micros, double p95Micros,
      double p99Micros) {}

  /**
   * Runs PE's {@code command} (its argument list: options then the command name) with {@code threads} clients, each
   * doing {@code rowsPerClient} operations over the first {@code totalRows} rows.
   */
  static Result run(Configuration conf, List<String> options, String command, int threads, int rowsPerClient,
      int totalRows) throws Exception {
    Queue<String> args = new ArrayDeque<>(options);
    args.add("--nomapred");
    args.add("--table=" + TABLE);
    args.add("--valueSize=" + VALUE_BYTES);
    args.add("--rows=" + rowsPerClient);
    args.add(command);
    args.add(Integer.toString(threads));
    Object opts = invoke("parseOpts", new Class<?>[] {Queue.class}, args);
    // PE derives the key space from --rows x clients; fix it to the rows loaded, whatever the thread count.
    set(opts, "setTotalRows", totalRows);
    set(opts, "setPerClientRunRows", rowsPerClient);
    try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
      invoke("checkTable", new Class<?>[] {Admin.class, OPTIONS}, admin, opts);
    }
    Object[] results = (Object[]) invoke("doLocalClients", new Class<?>[] {OPTIONS, Configuration.class}, opts, conf);
    double rowsPerSecond = 0;
    long rows = 0;
    List<Double> medians = new ArrayList<>();
    double p95 = 0;
    double p99 = 0;
    for (Object r : results) {
      long millis = r.getClass().getField("duration").getLong(r);
      com.codahale.metrics.Histogram hist =
          (com.codahale.metrics.Histogram) r.getClass().getField("hist").get(r);
      rowsPerSecond += rowsPerClient * 1_000.0 / Math.max(1, millis);
      rows += rowsPerClient;
      Snapshot s = hist.getSnapshot();
      medians.add(s.getMedian());
      p95 = Math.max(p95, s.get95thPercentile());
      p99 = Math.max(p99, s.get99thPercentile());
    }
    medians.sort(null);
    return new Result(label(command, options), threads, rows, rowsPerSecond, medians.get(medians.size() / 2), p95,
        p99);
  }

  /** Loads {@code rows} rows with PE's {@code sequentialWrite} (one client), creating the table pre-split. */
  static void load(Configuration conf, int rows, int regions) throws Exception {
    run(conf, List.of("--presplit=" + regions, "--autoFlush=false"), "sequentialWrite", 1, rows, rows);
  }

  private static String label(String command, List<String> options) {
    StringBuilder label = new StringBuilder(command);
    for (String option : options) {
      if (option.startsWith("--multiGet=")) {
        label.append(" multiGet=").append(option.substring("--multiGet=".length()));
      }
    }
    return label.toString();
  }

  /** Calls the options' int setter {@code name}: the options class is package-private, its setters public. */
  private static void set(Object opts, String name, int value) throws Exception {
    Method setter = OPTIONS.getMethod(name, int.class);
    setter.setAccessible(true);
    setter.invoke(opts, value);
  }

  private static Object invoke(String name, Class<?>[] types, Object... args) throws Exception {
    Method m = PE.getDeclaredMethod(name, types);
    m.setAccessible(true);
    try {
      return m.invoke(null, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }
}
