package dev.blockcache.site;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import dev.blockcache.testing.Figures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Random values for random keys of {@link ConfigKeys#ALL} (1 to 3 keys per configuration, over a base that builds
 * both tiers) read by {@link SiteConfigReader}: 10,000 configurations in verify (about 1 s), 100,000 with
 * {@code -Dblockcache.fuzz.long=true}. Forbids: any exception other than {@link ConfigException} (a parser's
 * NumberFormatException, an overflow, an OOM), a hang (the whole run has a deadline), a {@link ConfigException}
 * whose {@link ConfigException#key()} is not a known key (shares that must sum to 1 are named together,
 * {@code a + b + c}), and one whose message does not name a key that was given a random value. The message, not
 * {@code key()}: a cross-key rule names the other key in {@code key()} ({@code acceptfactor=0.6} alone is reported as
 * {@code minfactor=0.85 ... no larger than acceptfactor (0.6)}).
 */
class ConfigFuzzTest {
  private static final long MAX_HEAP = 1L << 30;
  private static final String[] VALUES = {
      "", " ", "0", "-0", "1", "-1", "0.5", "1.0001", "-0.5", "2", "1e309", "-1e309", "NaN", "Infinity",
      "-Infinity", "0x10", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "2147483648",
      "1k", "10g", "16t", "99999999t", "-5m", "1.5g", "g", "k1", "true", "false", "TRUE", "yes", "LRU", "tinylfu",
      "TinyLFU ", "heap", "offheap", "file:", "file:relative/path", "files:,", "files:/a,/a", "mmap:", "nvme",
      "hdd", "5120,9216", "256,128", "100", "1,,2", "-256", "256", "${undefined}", "\u00e9\u00e8", "\t1\n",
      "0.95", "0.85", "0.25", "0.50", "1000", "86400001", "1e3", "3.4028235E39"};

  private static String randomValue(SplittableRandom random) {
    return switch (random.nextInt(4)) {
      case 0 -> Double.toString(random.nextDouble(-2, 2));
      case 1 -> Long.toString(random.nextLong());
      case 2 -> VALUES[random.nextInt(VALUES.length)] + VALUES[random.nextInt(VALUES.length)];
      default -> VALUES[random.nextInt(VALUES.length)];
    };
  }

  @Test
  void everyErrorIsAConfigExceptionNamingAKeyThatWasGiven() {
    int rounds = Boolean.getBoolean("blockcache.fuzz.long") ? 100_000 : 10_000;
    SplittableRandom random = new SplittableRandom(17);
    int[] outcome = new int[2];
    List<String> failures = new ArrayList<>();
    assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
      for (int i = 0; i < rounds; i++) {
        Configuration conf = new Configuration(false);
        conf.set(SiteConfigReader.L1_MEMORY_SIZE, "16m");
        conf.set(BucketCacheKeys.IOENGINE, "heap");
        conf.set(BucketCacheKeys.SIZE, "64");
        List<String> given = new ArrayList<>();
        for (int k = 1 + random.nextInt(3); k > 0; k--) {
          String key = ConfigKeys.ALL.get(random.nextInt(ConfigKeys.ALL.size())).name();
          String value = randomValue(random);
          conf.set(key, value);
          given.add(key + "=" + value);
        }
        try {
          SiteConfigReader.read(conf, MAX_HEAP);
          outcome[0]++;
        } catch (ConfigException e) {
          outcome[1]++;
          List<String> named = List.of(e.key().split(" \\+ "));
          boolean known = named.stream().allMatch(ConfigKeys::isKnown);
          if (!known || given.stream().noneMatch(kv -> e.getMessage().contains(kv.substring(0, kv.indexOf('='))))) {
            failures.add(given + " -> error names " + e.key() + ": " + e.getMessage());
          }
        } catch (Throwable e) {
          failures.add(given + " -> " + e);
        }
      }
    });
    new Figures("ConfigFuzzTest", "SiteConfigReader").put("configurations", rounds).put("accepted", outcome[0])
        .put("configException", outcome[1]).put("otherFailures", failures.size()).print();
    assertTrue(failures.isEmpty(), failures.size() + " bad outcomes, first: "
        + failures.subList(0, Math.min(10, failures.size())));
    assertTrue(outcome[0] > 0 && outcome[1] > 0, "the fuzz never reached one of the two outcomes");
  }
}
