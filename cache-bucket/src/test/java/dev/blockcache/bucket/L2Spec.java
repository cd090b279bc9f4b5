package dev.blockcache.bucket;

import dev.blockcache.bucket.engine.IoEngineRegistry;
import dev.blockcache.config.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One L2 configuration of the contract matrix: engine × writer mode × read mode × checksum × persistence. {@link #all}
 * is the cross product less the combinations {@link BucketCacheConfig} refuses (so the matrix follows the config's
 * own rules instead of restating them) and less checkpointing where the cache declines it with a WARN and runs
 * without (engines whose restored blocks it cannot verify: memory engines, {@code mmap:}, checksums off), which would
 * only repeat the same cache. {@link #checkpoints()} states that rule, and the matrix test fails if the cache's own
 * decision ever differs from it.
 *
 * <p>Thread-safety: immutable.
 */
record L2Spec(Engine engine, WriterMode writer, ReadMode read, Checksum checksum, Persistence persistence) {
  /** The engines, each with the {@code hbase.bucketcache.ioengine} value it takes inside a test directory. */
  enum Engine {
    HEAP, OFFHEAP, FILE, FILES, MMAP;

    String spec(Path dir) {
      return switch (this) {
        case HEAP -> "heap";
        case OFFHEAP -> "offheap";
        case FILE -> "file:" + dir.resolve("cache.bin");
        case FILES -> "files:" + dir.resolve("cache-a.bin") + "," + dir.resolve("cache-b.bin");
        default -> "mmap:" + dir.resolve("cache.map");
      };
    }
  }

  /** QUEUED: writer threads started, a put waits for queue room; INLINE: the caller's thread writes the slot. */
  enum WriterMode { QUEUED, INLINE }

  /** ZERO_COPY: gets are views of the slot (memory engines); COPY: {@code hbase.bucketcache.read.copy=true}. */
  enum ReadMode { ZERO_COPY, COPY }

  /** {@code hbase.bucketcache.checksum.verify}. */
  enum Checksum { VERIFIED, UNVERIFIED }

  /** Without or with {@code hbase.bucketcache.persistent.path} (checkpoints while the test runs). */
  enum Persistence { NONE, CHECKPOINTED }

  /** Capacity of every matrix cache: 8 buckets of the test sizes' largest item. */
  static final long CAPACITY = 8L << 20;

  /** The config of this spec, its files inside {@code dir}. */
  BucketCacheConfig config(Path dir) {
    BucketCacheConfig.Builder builder = BucketCaches.config(engine.spec(dir), CAPACITY)
        .queueAdditionWaitTimeMs(10_000)
        .writerInline(writer == WriterMode.INLINE)
        .copyOnRead(read == ReadMode.COPY)
        .checksumVerify(checksum == Checksum.VERIFIED)
        .persistIntervalMs(50);
    if (persistence == Persistence.CHECKPOINTED) {
      builder.persistentPath(dir.resolve("index.ckpt").toString());
    }
    return builder.build();
  }

  /** Every combination the config accepts. */
  private static final IoEngineRegistry ENGINES = IoEngineRegistry.withBuiltins();

  static List<L2Spec> all() {
    Path probe = Path.of("probe");
    List<L2Spec> specs = new ArrayList<>();
    for (Engine engine : Engine.values()) {
      for (WriterMode writer : WriterMode.values()) {
        for (ReadMode read : ReadMode.values()) {
          for (Checksum checksum : Checksum.values()) {
            for (Persistence persistence : Persistence.values()) {
              L2Spec spec = new L2Spec(engine, writer, read, checksum, persistence);
              if (persistence == Persistence.CHECKPOINTED && !spec.checkpoints()) {
                continue;
              }
              try {
                BucketCacheConfig config = spec.config(probe);
                if (config.writerInline() && !ENGINES.makesMemoryEngine(config.ioEngine())) {
                  continue; // the cache refuses inline writes on this engine; InlineWriterTest covers the refusal
                }
                specs.add(spec);
              } catch (ConfigException refused) {
                // not a valid combination: the config says why, and BucketCacheConfigTest covers the refusal
              }
            }
          }
        }
      }
    }
    return specs;
  }

  /**
   * Whether a cache of this spec checkpoints its index when given a persistent path: only a file engine that verifies
   * each block's checksum can check restored blocks.
   */
  boolean checkpoints() {
    return (engine == Engine.FILE || engine == Engine.FILES) && checksum == Checksum.VERIFIED;
  }

  @Override
  public String toString() {
    return String.join(" · ", List.of(engine, writer, read, checksum, persistence).stream()
        .map(e -> e.name().toLowerCase(Locale.ROOT)).toList());
  }
}
