package dev.blockcache.hbase;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.blockcache.hbase.testing.BytesCacheable;
import dev.blockcache.hbase.testing.TestBlocks;
import dev.blockcache.hbase.testing.TestCaches;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HandedOverBlock}: the bytes {@link SerializedBlock#serialize} would copy, without the copy, and HBase's
 * reference to a pooled block held exactly as long as the hand-over lives (HBase's {@link ByteBuffAllocator} counts
 * the buffers returned to it; it creates them on demand), also through the L2 and its writers.
 */
class HandedOverBlockTest {
  private static final int BUFFER = 64 * 1024;
  private static final int BUFFERS = 4;

  private ByteBuffAllocator pool;
  private HBaseL2Cache cache;

  @BeforeEach
  void setUp() {
    Configuration conf = new Configuration(false);
    conf.setBoolean(ByteBuffAllocator.ALLOCATOR_POOL_ENABLED_KEY, true);
    conf.setInt(ByteBuffAllocator.BUFFER_SIZE_KEY, BUFFER);
    conf.setInt(ByteBuffAllocator.MAX_BUFFER_COUNT_KEY, BUFFERS);
    conf.setInt(ByteBuffAllocator.MIN_ALLOCATE_SIZE_KEY, 0);
    pool = ByteBuffAllocator.create(conf, true);
  }

  @AfterEach
  void tearDown() {
    if (cache != null) {
      cache.shutdown();
    }
  }

  /** A data block of {@code payload} random bytes (plus header) in one buffer of the pool, shared memory. */
  private HFileBlock pooledBlock(long offset, int payload) {
    int header = HConstants.HFILEBLOCK_HEADER_SIZE;
    ByteBuff buf = pool.allocateOneBuffer();
    byte[] bytes = new byte[header + payload];
    new SplittableRandom(offset).nextBytes(bytes);
    buf.put(bytes).rewind().limit(header + payload);
    return TestBlocks.data("f", offset, payload, buf, pool, true);
  }

  private static byte[] bytes(ByteBuf buf) {
    return ByteBufUtil.getBytes(buf, buf.readerIndex(), buf.readableBytes());
  }

  @Test
  void holdsTheBytesSerializeWritesAndThePooledBlockUntilReleased() {
    HFileBlock block = pooledBlock(0, 40_000);
    assertEquals(0, pool.getFreeBufferCount(), "the pool's one buffer is the block's");

    ByteBuf handedOver = HandedOverBlock.of(block);
    assertNotNull(handedOver);
    ByteBuf copied = SerializedBlock.serialize(block);
    try {
      assertArrayEquals(bytes(copied), bytes(handedOver));
    } finally {
      copied.release();
    }

    block.release(); // the reader is done with it
    assertEquals(0, pool.getFreeBufferCount(), "the hand-over still holds the block");
    handedOver.release();
    assertEquals(1, pool.getFreeBufferCount(), "its release gave the buffer back");
  }

  @Test
  void aBlockThatIsNotAnHFileBlockIsLeftToSerialize() {
    assertNull(HandedOverBlock.of(new BytesCacheable(new byte[] {1, 2, 3})));
  }

  @Test
  void theL2ReleasesAPooledBlockOnceItIsInASlotAndServesTheSameBytes() throws IOException {
    cache = TestCaches.ours(TestCaches.conf("offheap", 8));
    HFileBlock block = pooledBlock(1 << 20, 50_000);
    BlockCacheKey key = new BlockCacheKey("f", 1 << 20);
    ByteBuf expected = SerializedBlock.serialize(block);
    try {
      cache.cacheBlock(key, block);
      block.release();
      TestCaches.drain(cache);
      assertEveryPoolBufferFree();

      Cacheable cached = cache.getBlock(key, true, false, true);
      assertNotNull(cached);
      try {
        ByteBuffer serialized = ByteBuffer.allocate(cached.getSerializedLength());
        cached.serialize(serialized, true);
        byte[] read = new byte[serialized.remaining()];
        serialized.get(read);
        byte[] want = bytes(expected);
        assertArrayEquals(Arrays.copyOfRange(want, SerializedBlock.PREFIX_LENGTH, want.length), read);
      } finally {
        cached.release();
      }
    } finally {
      expected.release();
    }
  }
  @Test
  void aBlockQueuedForAWriterInAFullL2IsReleasedWhetherWrittenOrDeclined() throws IOException {
    cache = TestCaches.ours(TestCaches.conf("offheap", 8));
    for (int i = 0; i < 300; i++) { // 15 MB of blocks into 8 MB: the L2 is full and evicting
      cache.cacheBlock(new BlockCacheKey("f", (long) i << 16), TestBlocks.heap("f", (long) i << 16, 50_000), false, true);
    }
    TestCaches.drain(cache);

    for (int i = 0; i < BUFFERS; i++) {
      long offset = (1000L + i) << 16;
      HFileBlock block = pooledBlock(offset, 50_000);
      cache.cacheBlock(new BlockCacheKey("f", offset), block, false, true);
      block.release();
    }
    TestCaches.drain(cache);
    assertEveryPoolBufferFree();
  }

  @Test
  void aKeyTheL2RefusesRetainsNothing() throws IOException {
    cache = TestCaches.ours(TestCaches.conf("offheap", 8));
    HFileBlock block = pooledBlock(0, 50_000);

    assertThrows(IllegalArgumentException.class, () -> cache.cacheBlock(new BlockCacheKey("f", -1), block));
    block.release();
    assertEveryPoolBufferFree();
  }

  /** Takes every buffer the pool may hold: none comes from the heap unless one is still held (leaked). */
  private void assertEveryPoolBufferFree() {
    long heapBefore = pool.getHeapAllocationBytes();
    ByteBuff[] all = new ByteBuff[BUFFERS];
    try {
      for (int i = 0; i < BUFFERS; i++) {
        all[i] = pool.allocateOneBuffer();
      }
      assertEquals(heapBefore, pool.getHeapAllocationBytes(), "every pool buffer was free: nothing held");
    } finally {
      for (ByteBuff b : all) {
        if (b != null) {
          b.release();
        }
      }
    }
  }
}
