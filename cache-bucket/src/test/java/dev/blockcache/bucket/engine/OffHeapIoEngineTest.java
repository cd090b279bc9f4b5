package dev.blockcache.bucket.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.util.internal.PlatformDependent;
import org.junit.jupiter.api.Test;

class OffHeapIoEngineTest extends IoEngineContractTest {
  @Override
  protected IoEngine newEngine(long capacity, int segmentSize) {
    return new OffHeapIoEngine(capacity, segmentSize);
  }

  @Test
  void takesExactlyItsCapacityOfDirectMemoryAndReturnsItOnClose() {
    long before = PlatformDependent.usedDirectMemory();
    if (before < 0) {
      return; // netty does not count direct memory on this JVM
    }
    long capacity = 5L * SEGMENT + 123;
    IoEngine sized = newEngine(capacity, SEGMENT);
    assertEquals(capacity, PlatformDependent.usedDirectMemory() - before);
    sized.close();
    assertEquals(before, PlatformDependent.usedDirectMemory());
  }
}
