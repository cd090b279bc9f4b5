package dev.blockcache.bucket;

import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.L2Policy;
import dev.blockcache.bucket.engine.IoEngineRegistry;
import dev.blockcache.config.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One L2 configuration of the contract matrix: engine × writer mode × read mode × checksum × persistence × eviction
 * policy × admission window × how the contract's puts reach the cache.
 *
 * <p>{@link #all} holds:
 * <ul>
 *   <li>the whole cross product of the first five axes (the storage and write-path settings), less the combinations
 *       {@link BucketCacheConfig} refuses (so the matrix follows the config's own rules instead of restating them)
 *       and less checkpointing where the cache declines it with a WARN and runs without (engines whose restored
 *       blocks it cannot verify: memory engines, {@code mmap:}, checksums off), which would only repeat the same
 *       cache. {@link #checkpoints()} states that rule, and the matrix test fails if the cache's own decision ever
 *       differs from it;</li>
 *   <li>over those, the last three axes (policy, window, puts) pairwise: every value of each of them meets every value
 *       of every other axis in at least one spec, wherever a valid spec has both. The window is a setting of the
 *       {@code tinylfu} policy only, so {@code hbase} specs keep the default window. A full cross product of all
 *       eight axes would multiply the run time by the 24 combinations of the last three for no pair it adds;</li>
 *   <li>the configurations the former hand-written contract subclasses ran ({@link #PINNED}), each kept whole.</li>
 * </ul>
 * The choice is deterministic (greedy, in axis order), so a spec's name means the same cache in every run.
 *
 * <p>Thread-safety: immutable.
 */
record L2Spec(Engine engine, WriterMode writer, ReadMode read, Checksum checksum, Persistence persistence,
    L2Policy policy, Window window, Puts puts) {
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

  /** QUEUED: writer threads, a put waits for queue room; INLINE: the caller's thread writes the slot. */
  enum WriterMode { QUEUED, INLINE }

  /** ZERO_COPY: gets are views of the slot (memory engines); COPY: {@code hbase.bucketcache.read.copy=true}. */
  enum ReadMode { ZERO_COPY, COPY }

  /** {@code hbase.bucketcache.checksum.verify}. */
  enum Checksum { VERIFIED, UNVERIFIED }

  /** Without or with {@code hbase.bucketcache.persistent.path} (checkpoints while the test runs). */
  enum Persistence { NONE, CHECKPOINTED }

  /**
   * The admission window of the {@code tinylfu} policy: OFF ({@code admission.window.factor} 0: a new block is judged
   * on arrival), DEFAULT (hill-climbed between the default factors), FIXED (lower and upper factor equal, so the
   * climber never moves the share).
   */
  enum Window {
    OFF(0f, BucketCacheConfig.DEFAULT_ADMISSION_WINDOW_MAX),
    DEFAULT(BucketCacheConfig.DEFAULT_ADMISSION_WINDOW, BucketCacheConfig.DEFAULT_ADMISSION_WINDOW_MAX),
    FIXED(0.125f, 0.125f);

    final float factor;
    final float maxFactor;

    Window(float factor, float maxFactor) {
      this.factor = factor;
      this.maxFactor = maxFactor;
    }
  }

  /**
   * How the contract's puts reach the cache. CACHE_BLOCK and HAND_OVER: {@code cacheBlock} (the cache copies) or
   * {@code handOver} (the cache keeps the caller's reference until written), into a started cache whose writers run,
   * so gets find blocks in the RAM cache or in slots, whichever holds them at that moment. The _WRITTEN forms: the same
   * calls into a cache that was never started, whose queued blocks the test's thread writes after every put, so every
   * get reads a slot (and every handed-over buffer has been released by then).
   */
  enum Puts {
    CACHE_BLOCK, HAND_OVER, CACHE_BLOCK_WRITTEN, HAND_OVER_WRITTEN;

    boolean handsOver() {
      return this == HAND_OVER || this == HAND_OVER_WRITTEN;
    }

    boolean started() {
      return this == CACHE_BLOCK || this == HAND_OVER;
    }
  }

  /** Capacity of every matrix cache: 8 buckets of the test sizes' largest item. */
  static final long CAPACITY = 8L << 20;

  /**
   * Specs kept whole whatever the pairwise choice: the configurations of the hand-written contract subclasses the
   * matrix replaced (a started heap L2 with {@code cacheBlock} and with {@code handOver}; an offheap L2 with inline
   * writes; offheap L2s written after every {@code cacheBlock} and every {@code handOver}; a {@code file:} L2 written
   * after every put), each with the default policy and window.
   */
  static final List<L2Spec> PINNED = List.of(
      pinned(Engine.HEAP, WriterMode.QUEUED, Puts.CACHE_BLOCK),
      pinned(Engine.HEAP, WriterMode.QUEUED, Puts.HAND_OVER),
      pinned(Engine.OFFHEAP, WriterMode.INLINE, Puts.CACHE_BLOCK),
      pinned(Engine.OFFHEAP, WriterMode.QUEUED, Puts.CACHE_BLOCK_WRITTEN),
      pinned(Engine.OFFHEAP, WriterMode.QUEUED, Puts.HAND_OVER_WRITTEN),
      pinned(Engine.FILE, WriterMode.QUEUED, Puts.CACHE_BLOCK_WRITTEN));

  private static L2Spec pinned(Engine engine, WriterMode writer, Puts puts) {
    return new L2Spec(engine, writer, ReadMode.ZERO_COPY, Checksum.VERIFIED, Persistence.NONE, L2Policy.TINYLFU,
        Window.DEFAULT, puts);
  }

  /** The config of this spec, its files inside {@code dir}. */
  BucketCacheConfig config(Path dir) {
    BucketCacheConfig.Builder builder = BucketCaches.config(engine.spec(dir), CAPACITY)
        .queueAdditionWaitTimeMs(10_000)
        .writerInline(writer == WriterMode.INLINE)
        .copyOnRead(read == ReadMode.COPY)
        .checksumVerify(checksum == Checksum.VERIFIED)
        .evictionPolicy(policy)
        .admissionWindow(window.factor)
        .admissionWindowMax(window.maxFactor)
        .persistIntervalMs(50);
    if (persistence == Persistence.CHECKPOINTED) {
      builder.persistentPath(dir.resolve("index.ckpt").toString());
    }
    return builder.build();
  }

  /** This spec with its puts made as {@code puts}. */
  L2Spec withPuts(Puts puts) {
    return new L2Spec(engine, writer, read, checksum, persistence, policy, window, puts);
  }

  private static final IoEngineRegistry ENGINES = IoEngineRegistry.withBuiltins();

  /** The matrix: see the class notes. */
  static List<L2Spec> all() {
    List<L2Spec> valid = new ArrayList<>();
    for (Engine engine : Engine.values()) {
      for (WriterMode writer : WriterMode.values()) {
        for (ReadMode read : ReadMode.values()) {
          for (Checksum checksum : Checksum.values()) {
            for (Persistence persistence : Persistence.values()) {
              for (L2Policy policy : L2Policy.values()) {
                for (Window window : Window.values()) {
                  for (Puts puts : Puts.values()) {
                    L2Spec spec = new L2Spec(engine, writer, read, checksum, persistence, policy, window, puts);
                    if (spec.isValid()) {
                      valid.add(spec);
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    Set<String> uncovered = new HashSet<>();
    for (L2Spec spec : valid) {
      uncovered.addAll(spec.newAxisPairs());
    }
    LinkedHashSet<L2Spec> chosen = new LinkedHashSet<>();
    for (L2Spec spec : PINNED) {
      if (!spec.isValid()) {
        throw new AssertionError("a pinned spec the config no longer accepts: " + spec);
      }
      chosen.add(spec);
      uncovered.removeAll(spec.newAxisPairs());
    }
    Set<String> storageCovered = new HashSet<>();
    chosen.forEach(s -> storageCovered.add(s.storage()));
    // Every storage configuration once, with the policy, window and puts that cover the most pairs still missing.
    for (L2Spec spec : valid) {
      if (storageCovered.add(spec.storage())) {
        L2Spec best = best(valid.stream().filter(s -> s.storage().equals(spec.storage())).toList(), uncovered);
        chosen.add(best);
        uncovered.removeAll(best.newAxisPairs());
      }
    }
    // Then whatever pairs remain, a spec at a time.
    while (!uncovered.isEmpty()) {
      L2Spec best = best(valid.stream().filter(s -> !chosen.contains(s)).toList(), uncovered);
      chosen.add(best);
      uncovered.removeAll(best.newAxisPairs());
    }
    return List.copyOf(chosen);
  }

  /** The first of {@code candidates} that covers the most of {@code uncovered}. */
  private static L2Spec best(List<L2Spec> candidates, Set<String> uncovered) {
    L2Spec best = null;
    int most = -1;
    for (L2Spec candidate : candidates) {
      int covers = 0;
      for (String pair : candidate.newAxisPairs()) {
        if (uncovered.contains(pair)) {
          covers++;
        }
      }
      if (covers > most) {
        best = candidate;
        most = covers;
      }
    }
    return best;
  }

  /** Whether the config accepts this spec and the spec says something the others do not (see the class notes). */
  private boolean isValid() {
    if (persistence == Persistence.CHECKPOINTED && !checkpoints()) {
      return false;
    }
    if (policy == L2Policy.HBASE && window != Window.DEFAULT) {
      return false; // the window is the tinylfu policy's: under hbase every window value is the same cache
    }
    try {
      BucketCacheConfig config = config(Path.of("probe"));
      // The cache refuses inline writes on a file engine; InlineWriterTest covers the refusal.
      return !config.writerInline() || ENGINES.makesMemoryEngine(config.ioEngine());
    } catch (ConfigException refused) {
      return false; // the config says why, and BucketCacheConfigTest covers the refusal
    }
  }

  /**
   * Whether a cache of this spec checkpoints its index when given a persistent path: only a file engine that verifies
   * each block's checksum can check restored blocks.
   */
  boolean checkpoints() {
    return (engine == Engine.FILE || engine == Engine.FILES) && checksum == Checksum.VERIFIED;
  }

  /** The first five axes' values: the storage configuration the pairwise axes are spread over. */
  private String storage() {
    return axes().subList(0, 5).toString();
  }

  /** Every pair of this spec's axis values that involves one of the pairwise axes (policy, window, puts). */
  private List<String> newAxisPairs() {
    List<Enum<?>> values = axes();
    List<String> pairs = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      for (int j = Math.max(i + 1, 5); j < values.size(); j++) {
        pairs.add(i + "=" + values.get(i) + "," + j + "=" + values.get(j));
      }
    }
    return pairs;
  }

  private List<Enum<?>> axes() {
    return List.of(engine, writer, read, checksum, persistence, policy, window, puts);
  }

  @Override
  public String toString() {
    return String.join(" · ", axes().stream().map(e -> e.name().toLowerCase(Locale.ROOT)).toList());
  }
}
