package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.stats.BucketCacheMetrics;
import dev.blockcache.testing.Blocks;
import dev.blockcache.testing.Figures;
import io.netty.buffer.ByteBuf;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of a child JVM writing heavily into a persistent file L2, then a restart in this JVM: only verified blocks
 * are served. 3 kills in verify, 20 with {@code -Dblockcache.crash.long=true}. Prints served / discarded per kill.
 */
class CrashRestartTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);

  @TempDir
  Path dir;

  static BucketCacheConfig config(Path dir) {
    return BucketCaches.config("file:" + dir.resolve("cache.bin"), 16L << 20)
        .persistentPath(dir.resolve("index").toString()).persistIntervalMs(20).build();
  }

  static BlockKey key(String file, int i) {
    return BlockKey.of(file, i * 65_536L);
  }

  static int length(int i) {
    return 1000 + (i * 7919) % 7000;
  }

  @Test
  void afterEveryKillOnlyVerifiedBlocksAreServed() throws IOException, InterruptedException {
    int kills = Boolean.getBoolean("blockcache.crash.long") ? 20 : 3;
    SplittableRandom random = new SplittableRandom(7);
    long totalServed = 0;
    long totalDiscarded = 0;
    long totalWrong = 0;
    long totalOffered = 0;
    for (int round = 0; round < kills; round++) {
      String file = "round-" + round;
      int target = 500 + random.nextInt(3000);
      int offered = runAndKill(file, target);
      try (BucketCache cache = BucketCaches.create(config(dir))) {
        cache.start();
        assertNotNull(cache.persistence());
        int served = 0;
        int wrong = 0;
        for (int r = 0; r <= round; r++) {
          for (int i = 0; i < (r == round ? offered : 4000); i++) {
            BlockKey key = key("round-" + r, i);
            ByteBuf block = cache.getBlock(key, DATA);
            if (block != null) {
              served++;
              if (block.readableBytes() != length(i) || !Blocks.matches(key, block)) {
                wrong++;
              }
              block.release();
            }
          }
        }
        BucketCacheMetrics m = cache.metrics();
        System.out.printf("kill %d after %d blocks offered: restore %s, %d restored, %d served, %d discarded on read,"
            + " %d discarded at restore, %d wrong%n", round, offered, cache.persistence().restored().status(),
            cache.persistence().restored().restored(), served, m.headerMismatchCount() + m.checksumMismatchCount(),
            cache.persistence().restored().discarded(), wrong);
        totalServed += served;
        totalDiscarded += m.headerMismatchCount() + m.checksumMismatchCount() + cache.persistence().restored().discarded();
        totalWrong += wrong;
        totalOffered += offered;
        assertEquals(0, wrong, "a wrong block was served");
      }
    }
    new Figures("CrashRestartTest", "kill-9").put("kills", kills).put("offered", totalOffered)
        .put("served", totalServed).put("discarded", totalDiscarded).put("wrong", totalWrong).print();
    assertTrue(totalServed > 0, "no block survived any kill: the test proved nothing");
  }

  /** Starts the child, waits until it has offered at least {@code target} blocks, kills it; returns blocks offered. */
  private int runAndKill(String file, int target) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        CrashWriterMain.class.getName(), dir.toString(), file).redirectErrorStream(true).start();
    int offered = 0;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while (offered < target && (line = out.readLine()) != null) {
        if (line.startsWith("wrote ")) {
          offered = Integer.parseInt(line.substring(6));
        }
      }
      child.destroyForcibly();
      child.waitFor();
    }
    assertTrue(offered >= target, "child died before writing " + target + " blocks");
    // It may have offered up to 99 more blocks after its last report: count them as possibly cached.
    return offered + 99;
  }
}
