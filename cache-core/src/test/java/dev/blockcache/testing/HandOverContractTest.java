package dev.blockcache.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The contract of {@link BlockCache#handOver} (the cache takes the caller's reference on every result, including
 * failures, and the cached bytes stay right whatever the caller's buffer was), and of null arguments (each fails
 * with a {@link NullPointerException} naming the argument), on top of {@link BlockCacheContractTest}. Every test runs
 * under netty's PARANOID leak detector, so a hand-over that neither keeps nor releases the buffer fails.
 */
public abstract class HandOverContractTest extends BlockCacheContractTest {

  /** A buffer of {@code key}'s payload behind a header of {@code header} bytes, wrapping a plain array. */
  private static ByteBuf heapPayload(BlockKey key, int length, int header) {
    ByteBuf source = Blocks.payload(key, length);
    byte[] array = new byte[header + length];
    source.getBytes(0, array, header, length);
    source.release();
    return Unpooled.wrappedBuffer(array).readerIndex(header);
  }

  private void assertCachedAndReadable(BlockKey key, int length, BlockCategory category) {
    settle(cache);
    ByteBuf block = cache.getBlock(key, ReadOptions.of(category));
    assertNotNull(block, "handed-over block " + key + " not cached");
    try {
      Blocks.verify(key, length, block);
    } finally {
      block.release();
    }
  }

  @Test
  void handOverOfAWrappedHeapArrayCachesItsReadableBytesAndTakesTheReference() {
    for (BlockCategory category : List.of(BlockCategory.INDEX, BlockCategory.DATA)) {
      BlockKey key = key("f-" + category, 0);
      ByteBuf block = heapPayload(key, 4096, 33); // a header before the block, as an HFile block buffer has
      assertEquals(CacheResult.CACHED, cache.handOver(key, block, CacheOptions.of(category)));
      assertEquals(0, block.refCnt(), "the cache must release or keep the caller's reference");
      assertCachedAndReadable(key, 4096, category);
    }
  }

  @Test
  void handOverOfAPooledDirectBufferCachesItsBytesAndReleasesIt() {
    BlockKey key = key("f", 8192);
    ByteBuf block = Blocks.payload(key, 20_000);
    assertEquals(CacheResult.CACHED, cache.handOver(key, block, CacheOptions.of(BlockCategory.INDEX)));
    assertEquals(0, block.refCnt());
    assertCachedAndReadable(key, 20_000, BlockCategory.INDEX);
  }

  @Test
  void aPooledHeapBufferHandedOverIsNotReadBackAfterThePoolReusesIt() {
    BlockKey key = key("f", 0);
    ByteBuf payload = Blocks.payload(key, 8192);
    ByteBuf block = PooledByteBufAllocator.DEFAULT.heapBuffer(8192, 8192).writeBytes(payload);
    payload.release();
    assertEquals(CacheResult.CACHED, cache.handOver(key, block, CacheOptions.of(BlockCategory.INDEX)));
    assertEquals(0, block.refCnt());
    // The pool hands the released memory out again; whoever gets it writes over it.
    List<ByteBuf> reuses = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      ByteBuf reuse = PooledByteBufAllocator.DEFAULT.heapBuffer(8192, 8192);
      reuse.writeZero(8192);
      reuses.add(reuse);
    }
    try {
      assertCachedAndReadable(key, 8192, BlockCategory.INDEX);
    } finally {
      reuses.forEach(ByteBuf::release);
    }
  }

  @Test
  void aCallerThatRetainsBeforeHandingOverKeepsReadingItsBufferUntilItReleases() {
    for (BlockCategory category : List.of(BlockCategory.INDEX, BlockCategory.DATA)) {
      BlockKey key = key("retained-" + category, 0);
      ByteBuf read = heapPayload(key, 4096, 0);
      assertEquals(CacheResult.CACHED, cache.handOver(key, read.retain(), CacheOptions.of(category)));
      assertTrue(read.refCnt() >= 1, "the caller's own reference must survive the hand-over");
      assertCachedAndReadable(key, 4096, category);
      assertTrue(cache.evictBlock(key));
      settle(cache);
      Blocks.verify(key, 4096, read); // the caller's reference still reads its bytes after the cache let go
      read.release();
      assertEquals(0, read.refCnt(), "the cache must release the reference it was handed");
    }
  }

  @Test
  void aHandedOverBlockHeldByAReaderOutlivesItsEviction() {
    BlockKey key = key("f", 0);
    assertEquals(CacheResult.CACHED, cache.handOver(key, heapPayload(key, 5000, 0),
        CacheOptions.of(BlockCategory.INDEX)));
    settle(cache);
    ByteBuf held = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
    assertNotNull(held);
    assertTrue(cache.evictBlock(key));
    Blocks.verify(key, 5000, held);
    assertTrue(held.release());
  }

  @Test
  void everyFailedHandOverStillTakesTheReference() {
    BlockKey present = key("f", 0);
    assertEquals(CacheResult.CACHED, put(present, 100));
    ByteBuf duplicate = heapPayload(key("other", 0), 200, 0);
    assertEquals(CacheResult.ALREADY_CACHED, cache.handOver(present, duplicate, CacheOptions.of(BlockCategory.INDEX)));
    assertEquals(0, duplicate.refCnt());
    assertCachedAndReadable(present, 100, BlockCategory.INDEX);

    ByteBuf tooLarge = Blocks.payload(key("f", 1), largestBlock() + 1);
    assertEquals(CacheResult.TOO_LARGE, cache.handOver(key("f", 1), tooLarge, CacheOptions.of(BlockCategory.INDEX)));
    assertEquals(0, tooLarge.refCnt());
    assertEquals(1, cache.stats().failedInsertionCount());

    cache.close();
    ByteBuf late = Blocks.payload(key("f", 2), 100);
    assertEquals(CacheResult.DISABLED, cache.handOver(key("f", 2), late, CacheOptions.of(BlockCategory.INDEX)));
    assertEquals(0, late.refCnt());
  }

  @Test
  void handOverPastCapacityEvictsAndServesOnlyRightBytes() {
    int blockSize = 16 * 1024;
    long blocks = 3 * cacheCapacity() / blockSize;
    for (long i = 0; i < blocks; i++) {
      BlockKey key = key("f", i * blockSize);
      CacheResult result = cache.handOver(key, heapPayload(key, blockSize, 0), CacheOptions.of(BlockCategory.INDEX));
      assertTrue(result == CacheResult.CACHED || result.isFailure(), result.toString());
    }
    settle(cache);
    assertTrue(cache.size() <= settledSizeLimit(cacheCapacity()), "size " + cache.size());
    assertTrue(cache.stats().evictedBlockCount() > 0);
    int present = 0;
    for (long i = 0; i < blocks; i++) {
      BlockKey key = key("f", i * blockSize);
      ByteBuf b = cache.getBlock(key, ReadOptions.of(BlockCategory.INDEX));
      if (b != null) {
        present++;
        Blocks.verify(key, blockSize, b);
        b.release();
      }
    }
    assertEquals(cache.blockCount(), present);
  }

  @Test
  void aHandOverWithANullArgumentNamesItAndStillReleasesTheBlock() {
    ByteBuf block = Blocks.payload(key("f", 0), 100);
    assertNamed("key", () -> cache.handOver(null, block, CacheOptions.of(BlockCategory.INDEX)));
    assertEquals(0, block.refCnt());
    ByteBuf other = Blocks.payload(key("f", 0), 100);
    assertNamed("options", () -> cache.handOver(key("f", 0), other, null));
    assertEquals(0, other.refCnt());
    assertNamed("block", () -> cache.handOver(key("f", 0), null, CacheOptions.of(BlockCategory.INDEX)));
  }

  @Test
  void nullArgumentsFailWithTheArgumentsName() {
    BlockKey key = key("f", 0);
    ReadOptions read = ReadOptions.of(BlockCategory.INDEX);
    CacheOptions write = CacheOptions.of(BlockCategory.INDEX);
    ByteBuf block = ByteBufAllocator.DEFAULT.heapBuffer(16).writeZero(16);
    try {
      assertNamed("key", () -> cache.cacheBlock(null, block, write));
      assertNamed("block", () -> cache.cacheBlock(key, null, write));
      assertNamed("options", () -> cache.cacheBlock(key, block, null));
      assertNamed("key", () -> cache.getBlock(null, read));
      assertNamed("options", () -> cache.getBlock(key, null));
      assertNamed("key", () -> cache.read(null, read, b -> { }));
      assertNamed("options", () -> cache.read(key, null, b -> { }));
      assertNamed("reader", () -> cache.read(key, read, null));
      assertNamed("key", () -> cache.evictBlock(null));
      assertNamed("file", () -> cache.evictBlocksByFile(null));
      assertEquals(1, block.refCnt());
    } finally {
      block.release();
    }
    assertNull(cache.getBlock(key, read));
    assertFalse(cache.evictBlock(key));
  }

  private static void assertNamed(String argument, Executable call) {
    NullPointerException e = assertThrows(NullPointerException.class, call);
    assertEquals(argument, e.getMessage());
  }
}
