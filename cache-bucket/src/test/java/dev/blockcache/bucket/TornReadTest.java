package dev.blockcache.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.config.EngineGeometry;
import dev.blockcache.bucket.engine.ChannelIo;
import dev.blockcache.bucket.engine.FileEngineOptions;
import dev.blockcache.bucket.engine.FileIoEngine;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A get whose slot is freed and rewritten while the slot is read gets the old block's header and part of another
 * block's bytes. With checksums off, the key in the header still matches: the get must see that its entry left the
 * index during the read and miss, not serve the mixed bytes (found by the contract matrix on {@code mmap:} with
 * checksums off).
 */
class TornReadTest {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);

  @TempDir
  Path dir;

  private BucketCache cache;

  /** Reads normally; when armed, evicts the block being read and then overwrites the end of what was read. */
  private final class TearingIo implements ChannelIo {
    volatile BlockKey tearOnRead;

    @Override
    public int read(FileChannel channel, ByteBuffer dst, long position) throws IOException {
      int end = dst.position();
      int read = channel.read(dst, position);
      BlockKey torn = tearOnRead;
      if (torn != null && read > 0) {
        tearOnRead = null;
        cache.evictBlock(torn); // the slot is free: a writer may now fill it while the read goes on
        dst.put(dst.position() - 1, (byte) ~dst.get(dst.position() - 1));
        assertEquals(end + read, dst.position());
      }
      return read;
    }

    @Override
    public int write(FileChannel channel, ByteBuffer src, long position) throws IOException {
      return channel.write(src, position);
    }
  }

  @AfterEach
  void close() {
    cache.close();
  }

  @Test
  void aSlotRewrittenDuringTheReadIsAMissWithChecksumsOff() throws IOException {
    TearingIo io = new TearingIo();
    BucketCacheConfig config = BucketCaches.config("file:" + dir.resolve("cache.bin"), 8L << 20)
        .checksumVerify(false).build();
    long bucket = config.bucketCapacity();
    cache = new BucketCache(config, FileIoEngine.open(config.ioEngine(), (config.capacity() / bucket) * bucket,
        EngineGeometry.segmentSize(bucket), FileEngineOptions.DEFAULTS.withIo(io)), System::currentTimeMillis);
    BlockKey key = BlockKey.of("f", 0);
    ByteBuf source = Blocks.payload(key, 4000);
    try {
      assertEquals(CacheResult.CACHED, cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA)));
    } finally {
      source.release();
    }
    BucketCaches.drain(cache);
    ByteBuf whole = cache.getBlock(key, DATA);
    assertNotNull(whole, "an untouched slot is served");
    try {
      Blocks.verify(key, 4000, whole);
    } finally {
      whole.release();
    }

    io.tearOnRead = key;

    assertNull(cache.getBlock(key, DATA), "a slot freed during the read is a miss, never mixed bytes");
  }
}
