package dev.blockcache.it.reliability;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * Direct memory in use outside netty's pooled allocator: the JVM's {@code direct} buffer pool, or netty's own counter
 * when netty allocates without the JVM's knowledge (whichever is larger), less what the pooled allocator's arenas hold.
 * The pooled arenas are the caller's and the file engines' transient read buffers, not the L2's memory.
 *
 * <p>Thread-safety: stateless.
 */
final class DirectMemory {
  private DirectMemory() {}

  static long outsidePool() {
    long jvm = 0;
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        jvm = pool.getMemoryUsed();
      }
    }
    long total = Math.max(jvm, PlatformDependent.usedDirectMemory());
    return total - pooled();
  }

  static long pooled() {
    return PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
  }
}
