package dev.blockcache.jmh.l2;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import dev.blockcache.bucket.alloc.BucketAllocator;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.index.BlockIndex;
import dev.blockcache.bucket.index.IndexEntry;
import dev.blockcache.bucket.persist.IndexCheckpointWriter;
import dev.blockcache.bucket.persist.IndexPersister;
import dev.blockcache.jmh.BenchmarkDefaults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * L2 warm-restart time: how long restoring a checkpointed index of {@link #entries} entries takes, from reading the
 * checkpoint file to an index and allocator ready to serve (each entry is still verified lazily on its first read,
 * which is not part of the restart).
 *
 * <ul>
 *   <li><b>Checkpoint</b> (written once per trial, not timed): {@link #entries} DATA entries of 64 KiB blocks over 64
 *       files, in items of HBase's default 66,560-byte class packed 31 per bucket, as a full L2 of that many 64 KiB
 *       blocks (about 62 GiB) would hold them; written by the cache's own {@code IndexCheckpointWriter}.</li>
 *   <li><b>One operation</b> (single shot): {@code IndexPersister.restore} into a fresh {@code BlockIndex} and
 *       {@code BucketAllocator} made before it (not timed): read and CRC-check the file, presize the index
 *       segments, reserve every slot in the allocator, insert every entry. It fails the run unless every entry is
 *       restored.</li>
 *   <li><b>Cold vs warm</b>: the warmup shots absorb JIT compilation, so the score is a warm JVM's restore; the
 *       cold first restore of a fresh JVM is printed by {@code MillionEntryRestoreTest} in cache-bucket.</li>
 * </ul>
 * The target: under 1 s for 1,000,000 entries.
 *
 * <p>Run: {@code ./mvnw -B -Pbench verify -pl cache-jmh -am -DskipTests -Dbench.include=L2RestartBenchmark}.
 *
 * <p>Thread-safety: a JMH state used by one benchmark thread.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class L2RestartBenchmark extends BenchmarkDefaults {
  private static final int BLOCK = 64 * 1024;
  private static final int FILES = 64;
  private static final long CONFIG = 0x5EED_CAFEL;

  @Param({"1000000"})
  public int entries;

  private Path dir;
  private Path checkpoint;
  private long capacity;
  private BlockIndex index;
  private BucketAllocator allocator;

  @Setup(Level.Trial)
  public void writeCheckpoint() throws IOException {
    int[] sizes = BucketCacheConfig.defaultBucketSizes();
    int item = 65 * 1024;
    long bucket = 4L * sizes[sizes.length - 1];
    int perBucket = (int) (bucket / item);
    capacity = ((long) entries / perBucket + 1) * bucket;
    BlockIndex source = new BlockIndex(entries);
    String[] files = new String[FILES];
    for (int f = 0; f < FILES; f++) {
      files[f] = String.format("%032x", 0x9E3779B97F4A7C15L * (f + 1));
    }
    int stored = BLOCK + 24 + 32;
    for (int i = 0; i < entries; i++) {
      long offset = (long) (i / perBucket) * bucket + (long) (i % perBucket) * item;
      BlockKey key = BlockKey.of(files[i % FILES], (long) (i / FILES) * BLOCK);
      source.putIfAbsent(key, IndexEntry.pack(offset, stored, CachePriority.MULTI, BlockCategory.DATA));
    }
    dir = Files.createTempDirectory("l2-restart-bench");
    checkpoint = dir.resolve("index");
    new IndexCheckpointWriter(checkpoint, CONFIG).write(source);
  }

  @Setup(Level.Invocation)
  public void freshCache() {
    index = new BlockIndex(entries);
    allocator = new BucketAllocator(capacity, BucketCacheConfig.defaultBucketSizes());
  }

  @Benchmark
  public long restore() {
    IndexPersister.Restored r = new IndexPersister(checkpoint, CONFIG, "bench", index, null).restore(allocator);
    if (r.restored() != entries) {
      throw new IllegalStateException("restored " + r.restored() + " of " + entries + ": " + r.reason());
    }
    return r.restored();
  }

  @TearDown(Level.Trial)
  public void deleteCheckpoint() throws IOException {
    Files.deleteIfExists(checkpoint);
    Files.deleteIfExists(dir);
  }
}
