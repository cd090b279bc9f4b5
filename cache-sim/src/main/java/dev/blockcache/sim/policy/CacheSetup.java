package dev.blockcache.sim.policy;

import dev.blockcache.bucket.engine.IoEngineRegistry;

/**
 * What every real cache under simulation is built with: the block size and the L2's engine and write path.
 *
 * <p>Thread-safety: immutable.
 *
 * @param blockSize bytes of every block, at least 1
 * @param l2Engine the L2's engine, one the built-in registry makes as memory ({@code heap}, {@code offheap})
 * @param l2Writes how the L2 writes a missed block
 */
public record CacheSetup(int blockSize, String l2Engine, L2Writes l2Writes) {
  public CacheSetup {
    if (blockSize < 1) {
      throw new IllegalArgumentException("block size " + blockSize + ": expected at least 1 byte");
    }
    if (!IoEngineRegistry.withBuiltins().makesMemoryEngine(l2Engine)) {
      throw new IllegalArgumentException("L2 engine '" + l2Engine + "': accepted a memory engine (heap, offheap)");
    }
  }
}
