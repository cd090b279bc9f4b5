package dev.blockcache.hbase.clients;

import dev.blockcache.hbase.clients.fs.DelayedLocalFileSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The RegionServer client benchmark's size, from system properties ({@code -D} on the Maven command line), each
 * checked: a bad value fails naming the key, the value as written and what is accepted.
 *
 * @param warmupRounds rounds run first and discarded ({@value #WARMUP_ROUNDS}; 1, or 0 in a smoke run): the JVM
 *     that hosts every cluster compiles HBase's and the caches' code during them, not during a measured round
 * @param rounds rounds; each runs every dataset and stack once, stacks alternating ({@value #ROUNDS})
 * @param seconds measured seconds of one YCSB workload window, and of the warm-up ({@value #SECONDS})
 * @param maxOperations operations of one YCSB window at most, whatever its length ({@value #MAX_OPERATIONS})
 * @param stacks the stacks, in run order ({@value #STACKS}; HBASE_BUCKET is always added: it is the baseline)
 * @param datasets {@code fits} (the dataset fits the L2s) and/or {@code large} (4x the L2s) ({@value #DATASETS})
 * @param device the modelled device HFile reads go through ({@value #DEVICE}: none, sata-ssd, hdd or nvme)
 * @param ycsbThreads YCSB client threads ({@value #YCSB_THREADS})
 * @param peThreads PE client thread counts ({@value #PE_THREADS})
 * @param peRowsPerThread PE {@code randomRead} operations of one window, split over its client threads; multi-gets
 *     and scans scale from it ({@value #PE_ROWS})
 * @param smoke a smoke run ({@code bench.smoke}): tiny datasets and windows; its figures mean nothing
 */
record BenchConfig(int warmupRounds, int rounds, int seconds, long maxOperations, List<ClientStack> stacks,
    List<String> datasets,
    String device, int ycsbThreads, List<Integer> peThreads, int peRowsPerThread, boolean smoke) {
  static final String WARMUP_ROUNDS = "blockcache.rsclients.warmup.rounds";
  static final String ROUNDS = "blockcache.rsclients.rounds";
  static final String SECONDS = "blockcache.rsclients.seconds";
  static final String MAX_OPERATIONS = "blockcache.rsclients.max.operations";
  static final String STACKS = "blockcache.rsclients.stacks";
  static final String DATASETS = "blockcache.rsclients.datasets";
  static final String DEVICE = "blockcache.rsclients.device";
  static final String YCSB_THREADS = "blockcache.rsclients.ycsb.threads";
  static final String PE_THREADS = "blockcache.rsclients.pe.threads";
  static final String PE_ROWS = "blockcache.rsclients.pe.rows";

  /** Reads every key, with the defaults of a full run, or a smoke run's sizes under {@code bench.smoke=true}. */
  static BenchConfig fromSystemProperties() {
    boolean smoke = Boolean.getBoolean("bench.smoke");
    List<ClientStack> stacks = new ArrayList<>(list(STACKS, "HBASE_BUCKET,OURS_HOOK,OURS_EXCLUSIVE,OURS_EXCLUSIVE_COPY",
        v -> ClientStack.valueOf(v.toUpperCase(Locale.ROOT)), "names of ClientStack"));
    if (!stacks.contains(ClientStack.HBASE_BUCKET)) {
      stacks.add(0, ClientStack.HBASE_BUCKET);
    }
    List<String> datasets = list(DATASETS, "fits,large", v -> {
      if (!v.equals("fits") && !v.equals("large")) {
        throw new IllegalArgumentException(v);
      }
      return v;
    }, "fits and/or large");
    String device = System.getProperty(DEVICE, "sata-ssd");
    if (!DelayedLocalFileSystem.DEVICES.contains(device)) {
      throw new IllegalArgumentException(DEVICE + "='" + device + "': expected one of none, sata-ssd, hdd, nvme");
    }
    return new BenchConfig(nonNegative(WARMUP_ROUNDS, smoke ? 0 : 1), positive(ROUNDS, smoke ? 1 : 2),
        positive(SECONDS, smoke ? 1 : 6),
        positive(MAX_OPERATIONS, 2_000_000), stacks, datasets, device, positive(YCSB_THREADS, 4),
        list(PE_THREADS, smoke ? "2" : "1,4,16", v -> positive(PE_THREADS, v), "positive thread counts"),
        positive(PE_ROWS, smoke ? 50 : 2_000), smoke);
  }

  private static int nonNegative(String key, int fallback) {
    String v = System.getProperty(key);
    return v == null || v.isBlank() ? fallback : atLeast(key, v, 0, "a non-negative integer");
  }

  private static int positive(String key, int fallback) {
    String v = System.getProperty(key);
    return v == null || v.isBlank() ? fallback : positive(key, v);
  }

  private static int positive(String key, String value) {
    return atLeast(key, value, 1, "a positive integer");
  }

  /** {@code value} as an int of at least {@code min}, or an error naming the key, the value and {@code accepted}. */
  private static int atLeast(String key, String value, int min, String accepted) {
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below with the key
    }
    throw new IllegalArgumentException(key + "='" + value + "': expected " + accepted);
  }

  private static <T> List<T> list(String key, String fallback, Function<String, T> parse, String accepted) {
    String v = System.getProperty(key);
    String value = v == null || v.isBlank() ? fallback : v;
    List<T> out = new ArrayList<>();
    for (String item : value.split(",", -1)) {
      try {
        out.add(parse.apply(item.trim()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(key + "='" + value + "': expected a comma-separated list of " + accepted,
            e);
      }
    }
    return out;
  }
}
