package dev.blockcache.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Proves that the leak check the whole suite relies on sees a leak: a check that cannot fail proves nothing. */
class LeakCheckSelfTest {
  @Test
  void anUnreleasedBufferIsReported() {
    assertTrue(LeakRecorder.isInstalled());
    leakOne();
    List<String> leaks = List.of();
    for (int attempt = 0; attempt < 20 && leaks.isEmpty(); attempt++) {
      leaks = LeakRecorder.drainLeaks();
    }
    assertFalse(leaks.isEmpty(), "a leaked pooled buffer was not reported");
  }

  private static void leakOne() {
    ByteBuf leaked = PooledByteBufAllocator.DEFAULT.directBuffer(64);
    leaked.writeLong(1);
  }
}
