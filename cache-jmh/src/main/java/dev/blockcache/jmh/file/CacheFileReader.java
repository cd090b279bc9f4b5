package dev.blockcache.jmh.file;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.config.BucketCacheConfig;
import dev.blockcache.bucket.format.BlockHeader;
import dev.blockcache.jmh.L2Drain;
import dev.blockcache.jmh.workload.SlotShape;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Our L2 on {@code file:}: every block cached and written to the file before measurement; a read is a
 * {@code getBlock} hit (positional read into a pooled direct buffer, header and CRC32C checked) and the block's
 * release.
 *
 * <p>Thread-safety: as {@link BucketCache}.
 */
final class CacheFileReader implements FileReader {
  private static final ReadOptions DATA = ReadOptions.of(BlockCategory.DATA);
  /** Files the blocks' keys are spread over. */
  private static final int FILES = 16;

  private final BucketCache cache;
  private final BlockKey[] keys;

  CacheFileReader(Path file, int blocks, int blockSize, boolean directIo, boolean checksum) throws IOException {
    long capacity = (long) blocks * (blockSize + 2048) * 3 / 2 + (64L << 20);
    BucketCacheConfig config = BucketCacheConfig.builder("file:" + file, capacity).fileDirectIo(directIo)
        .checksumVerify(checksum).build();
    cache = BucketCache.create(config);
    keys = new BlockKey[blocks];
    byte[] payload = new byte[blockSize];
    for (int i = 0; i < blocks; i++) {
      keys[i] = BlockKey.of(file(i), (long) i * blockSize);
      payload[0] = (byte) i;
      ByteBuf block = Unpooled.wrappedBuffer(payload);
      CacheResult result = cache.cacheBlock(keys[i], block, CacheOptions.of(BlockCategory.DATA));
      if (result != CacheResult.CACHED) {
        throw new IllegalStateException("block " + i + " not cached: " + result);
      }
      L2Drain.await(cache);
    }
  }

  /** The file name of block {@code i}'s key. */
  private static String file(int i) {
    return "hfile-" + (i % FILES);
  }

  /** The longest header our cache writes beside these blocks (the longest file name's). */
  static int headerLength() {
    return BlockHeader.headerLength(BlockKey.of(file(FILES - 1), 0));
  }

  /** Bytes of the item that holds a block of {@code blockSize} bytes and its header, with the default bucket sizes. */
  static int itemSize(int blockSize) {
    return SlotShape.itemSize(headerLength() + blockSize);
  }

  @Override
  public int read(int block) {
    ByteBuf buf = cache.getBlock(keys[block], DATA);
    if (buf == null) {
      throw new IllegalStateException("miss on block " + block + ": the benchmark measures hits only");
    }
    int length = buf.readableBytes();
    buf.release();
    return length;
  }

  @Override
  public void close() {
    cache.close();
  }
}
