package dev.blockcache.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The defaults every benchmark of this module inherits: throughput in operations per second, the "full" run length
 * (2 forks, 5 × 2 s warmup, 5 × 2 s measurement; {@link Bench} shortens it for quick and smoke runs), and the JVM
 * flags of every fork.
 *
 * <p>Fork flags, and why:
 * <ul>
 *   <li>{@code -Xms} = {@code -Xmx} and {@code -XX:+AlwaysPreTouch}: on virtual machines whose host backs a page at
 *       its first touch, an untouched heap costs get throughput for seconds in mid-measurement, a cost that lands
 *       on whichever competitor runs first (docs/decisions.md#benchmarks).</li>
 *   <li>{@code -XX:+UseTransparentHugePages}: pre-touching in 2 MiB pages takes a fraction of the time of 4 KiB
 *       pages, and every fork pays it. Where the kernel offers no transparent huge pages the JVM warns and goes
 *       on with small pages.</li>
 *   <li>The {@code --add-opens}/{@code --add-exports} set and the shaded-netty property: HBase's caches (its
 *       {@code ByteBuff}, {@code UnsafeAccess} and shaded netty) reach into {@code java.base} and fail without them.
 *       They are given to every fork, whichever competitor it runs, so that no competitor runs under other flags.</li>
 * </ul>
 *
 * <p>Subclasses are {@link Scope#Benchmark} states; JMH inherits these annotations. Thread-safety: no state here.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 2, jvmArgsAppend = {
    "-Xms" + BenchmarkDefaults.HEAP, "-Xmx" + BenchmarkDefaults.HEAP, "-XX:+AlwaysPreTouch",
    "-XX:+UseTransparentHugePages",
    "--add-opens", "java.base/java.nio=ALL-UNNAMED",
    "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens", "java.base/java.lang=ALL-UNNAMED",
    "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public abstract class BenchmarkDefaults {
  /** Heap of every fork, fixed and pre-touched: room for a 256 MiB pre-populated L1 twice over plus the JVM's own. */
  public static final String HEAP = "2g";

  /**
   * Heap of the forks of experiments that keep their data off the heap or in small caches (experiments 3 and 4, which
   * annotate {@code @Fork} with it): pre-touching costs time in proportion to the heap, in every fork.
   */
  public static final String SMALL_HEAP = "512m";

  /** The block size every L1 benchmark caches: 4 KiB, a typical index or small data block. */
  public static final int BLOCK_SIZE = 4096;
}
