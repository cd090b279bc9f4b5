package dev.blockcache.bucket.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CachePriority;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pins the lock order of the L2 (package notes of {@code dev.blockcache.bucket}): an {@link EntrySink} runs after the
 * segment lock is released, so freeing a slot (pin table, allocator) never nests inside a segment lock. The sink here
 * reads every segment under its read lock; with the sink under a segment's write lock that deadlocks (the lock is not
 * reentrant), which the timeout turns into a failure.
 */
class SinkOutsideSegmentLockTest {
  private static BlockIndex filled() {
    BlockIndex index = new BlockIndex(64);
    for (int i = 0; i < 64; i++) {
      index.putIfAbsent(BlockKey.of("f", i * 4096L),
          IndexEntry.pack(i * 4096L, 1000, CachePriority.SINGLE, BlockCategory.DATA));
    }
    return index;
  }

  @ParameterizedTest
  @ValueSource(strings = {"evict", "removeFile", "removeEntries", "clear"})
  void aSinkCanReadTheWholeIndexBecauseNoSegmentLockIsHeld(String operation) {
    BlockIndex index = filled();
    AtomicLong sunk = new AtomicLong();
    EntrySink sink = entry -> {
      index.forEach((segment, fingerprint, e) -> { });
      sunk.incrementAndGet();
    };
    Consumer<BlockIndex> run = switch (operation) {
      case "evict" -> i -> i.evict(CachePriority.SINGLE, Long.MAX_VALUE, sink);
      case "removeFile" -> i -> i.removeFile("f", sink);
      case "removeEntries" -> i -> i.removeEntries(entry -> true, sink);
      default -> i -> i.clear(sink);
    };
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> run.accept(index),
        "the sink ran under a segment lock");
    assertEquals(64, sunk.get());
    assertEquals(0, index.size());
  }
}
