package dev.blockcache.hbase.clients;

import dev.blockcache.hbase.clients.ycsb.HBaseClientDb;
import dev.blockcache.jmh.experiments.YcsbWorkload;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.hadoop.hbase.client.Connection;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.MeasurementsExporter;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's own {@link CoreWorkload} driven programmatically, with the operation mixes of cache-jmh's
 * {@link YcsbWorkload} (A, C, F, update-only), over {@link HBaseClientDb}: a load phase of
 * {@code doInsert}s, then a run phase of {@code doTransaction}s bounded by an operation count and a duration, each
 * timed into an HdrHistogram (one YCSB operation, a read-modify-write of workload F included, is one sample). Rows are
 * the seed's 10 fields of 100 B; keys are YCSB's hashed ones; the request distribution is YCSB's Zipfian (its
 * scrambled form over the key space). YCSB's {@code dataintegrity} is on: every value is a function of its key and
 * field, so every read is checked by YCSB itself ({@code CoreWorkload.verifyRow}) and its verdicts are counted here.
 *
 * <p>Thread-safety: one run at a time (YCSB's measurements are a JVM-wide singleton); its client threads share only
 * atomic counters and the recorder.
 */
final class YcsbRun {
  static final String TABLE = "usertable";
  static final byte[] FAMILY = org.apache.hadoop.hbase.util.Bytes.toBytes(HBaseClientDb.DEFAULT_FAMILY);
  static final int FIELDS = 10;
  static final int FIELD_BYTES = 100;
  /** Slowest operation the histogram holds, microseconds (a stalled RPC's retries included). */
  private static final long MAX_LATENCY_MICROS = 120_000_000L;

  static {
    // YCSB's measurements (the read-modify-write timer, the verify verdicts) are built once per JVM from these.
    Properties measurements = new Properties();
    measurements.setProperty("measurementtype", "histogram");
    Measurements.setProperties(measurements);
  }

  private YcsbRun() {}

  /** A workload's name in reports: {@code a}, {@code c}, {@code f}, {@code update-only}. */
  static String label(YcsbWorkload workload) {
    return workload.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * One run phase's figures.
   *
   * @param latencyMicros per-operation latency, microseconds
   * @param wrongReads reads YCSB found holding another value than was written
   * @param failedReads reads YCSB found empty (missing row, or an error after the client's retries)
   * @param errors operations the binding turned into {@code Status.ERROR}
   */
  record Result(YcsbWorkload workload, long operations, double seconds, Histogram latencyMicros, long wrongReads,
      long failedReads, long errors) {
    double opsPerSecond() {
      return operations / seconds;
    }
  }

  static Properties properties(YcsbWorkload workload, long records) {
    Properties p = new Properties();
    p.setProperty("table", TABLE);
    p.setProperty("recordcount", Long.toString(records));
    p.setProperty("fieldcount", Integer.toString(FIELDS));
    p.setProperty("fieldlength", Integer.toString(FIELD_BYTES));
    p.setProperty("requestdistribution", "zipfian");
    p.setProperty("readallfields", "true");
    p.setProperty("dataintegrity", "true");
    p.setProperty("readproportion", Double.toString(workload.readProportion()));
    p.setProperty("updateproportion", Double.toString(workload.updateProportion()));
    p.setProperty("readmodifywriteproportion", Double.toString(workload.readModifyWriteProportion()));
    p.setProperty("scanproportion", "0");
    p.setProperty("insertproportion", "0");
    // Read by the Zipfian key chooser to size room for keys inserted during the run; these mixes insert none.
    p.setProperty("operationcount", Integer.toString(Integer.MAX_VALUE));
    return p;
  }

  /**
   * Inserts {@code records} rows through YCSB's load path with {@code threads} client threads, buffered on the client
   * (every row is written once the threads have closed their bindings).
   */
  static void load(Connection connection, long records, int threads) throws Exception {
    CoreWorkload workload = workload(YcsbWorkload.C, records);
    AtomicLong next = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    Properties props = properties(YcsbWorkload.C, records);
    props.setProperty(HBaseClientDb.BUFFERED_INSERTS_KEY, "true");
    runThreads(threads, t -> {
      HBaseClientDb db = new HBaseClientDb(connection);
      db.setProperties(props);
      db.init();
      Object state = workload.initThread(db.getProperties(), t, threads);
      while (next.getAndIncrement() < records) {
        if (!workload.doInsert(db, state)) {
          failed.incrementAndGet();
        }
      }
      db.cleanup();
    });
    if (failed.get() > 0) {
      throw new IOException(failed.get() + " of " + records + " YCSB inserts failed");
    }
  }

  /** Runs {@code workload} until {@code maxOperations} operations or {@code maxTime}, whichever comes first. */
  static Result run(Connection connection, YcsbWorkload workload, long records, int threads, long maxOperations,
      Duration maxTime) throws Exception {
    return run(connection, workload, records, threads, maxOperations, maxTime, new AtomicBoolean());
  }

  /** As above, and stops early once {@code stop} is set (checked before each operation). */
  static Result run(Connection connection, YcsbWorkload workload, long records, int threads, long maxOperations,
      Duration maxTime, AtomicBoolean stop) throws Exception {
    CoreWorkload core = workload(workload, records);
    Recorder recorder = new Recorder(MAX_LATENCY_MICROS, 3);
    AtomicLong done = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    long[] verifyBefore = verifyVerdicts();
    long start = System.nanoTime();
    long end = start + maxTime.toNanos();
    runThreads(threads, t -> {
      HBaseClientDb db = db(connection, workload, records);
      Object state = core.initThread(db.getProperties(), t, threads);
      while (!stop.get() && System.nanoTime() < end && done.getAndIncrement() < maxOperations) {
        long began = System.nanoTime();
        core.doTransaction(db, state);
        recorder.recordValue(Math.min(MAX_LATENCY_MICROS, (System.nanoTime() - began) / 1_000));
      }
      errors.addAndGet(db.errors());
      db.cleanup();
    });
    double seconds = (System.nanoTime() - start) / 1e9;
    Histogram latency = recorder.getIntervalHistogram();
    long[] verifyAfter = verifyVerdicts();
    return new Result(workload, latency.getTotalCount(), seconds, latency, verifyAfter[0] - verifyBefore[0],
        verifyAfter[1] - verifyBefore[1], errors.get());
  }

  private static CoreWorkload workload(YcsbWorkload workload, long records) throws Exception {
    CoreWorkload core = new CoreWorkload();
    core.init(properties(workload, records));
    return core;
  }

  private static HBaseClientDb db(Connection connection, YcsbWorkload workload, long records) throws Exception {
    HBaseClientDb db = new HBaseClientDb(connection);
    db.setProperties(properties(workload, records));
    db.init();
    return db;
  }

  /**
   * YCSB's verify verdicts so far, JVM-wide: {wrong value, empty row}. {@code CoreWorkload.verifyRow} books
   * {@code UNEXPECTED_STATE} for a value that differs from the one written and {@code ERROR} for an empty read.
   */
  static long[] verifyVerdicts() throws IOException {
    long[] verdicts = new long[2];
    Measurements.getMeasurements().exportMeasurements(new MeasurementsExporter() {
      @Override
      public void write(String metric, String measurement, int i) {
        write(metric, measurement, (long) i);
      }

      @Override
      public void write(String metric, String measurement, long i) {
        if (metric.equals("VERIFY") && measurement.equals("Return=UNEXPECTED_STATE")) {
          verdicts[0] += i;
        } else if (metric.equals("VERIFY") && measurement.equals("Return=ERROR")) {
          verdicts[1] += i;
        }
      }

      @Override
      public void write(String metric, String measurement, double d) {}

      @Override
      public void close() {}
    });
    return verdicts;
  }

  /** One client thread's loop; {@code thread} is its index. */
  @FunctionalInterface
  interface ClientLoop {
    void run(int thread) throws Exception;
  }

  /** Runs {@code threads} copies of {@code loop} and rethrows the first failure. */
  static void runThreads(int threads, ClientLoop loop) throws Exception {
    List<Thread> started = new ArrayList<>();
    List<Exception> failures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int index = t;
      Thread thread = new Thread(() -> {
        try {
          loop.run(index);
        } catch (Exception e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      }, "ycsb-client-" + t);
      started.add(thread);
      thread.start();
    }
    for (Thread thread : started) {
      thread.join();
    }
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
  }
}
