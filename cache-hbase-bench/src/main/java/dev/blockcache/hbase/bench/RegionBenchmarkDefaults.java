package dev.blockcache.hbase.bench;

import dev.blockcache.jmh.BenchmarkDefaults;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What every benchmark through {@code HRegion} shares, on top of cache-jmh's {@link BenchmarkDefaults}: forks with a
 * heap of {@value #HEAP} (the region, its L1s and the memstore that writes a dataset once), and a full-mode warmup of
 * 8 × 2 s, since gets per second through HBase's read path keep rising for seconds of a fork while the JIT compiles
 * it, and the measurement must start after that. JMH inherits these annotations.
 *
 * <p>Thread-safety: no state here.
 */
@Fork(value = 2, jvmArgsAppend = {
    "-Xms" + RegionBenchmarkDefaults.HEAP, "-Xmx" + RegionBenchmarkDefaults.HEAP, "-XX:+AlwaysPreTouch",
    "-XX:+UseTransparentHugePages",
    "--add-opens", "java.base/java.nio=ALL-UNNAMED",
    "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens", "java.base/java.lang=ALL-UNNAMED",
    "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
    "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true"})
@Warmup(iterations = 8, time = 2)
public abstract class RegionBenchmarkDefaults extends BenchmarkDefaults {
  /** Heap of every fork. */
  static final String HEAP = "1g";
}
