package dev.blockcache.jmh.file;

import dev.blockcache.jmh.hbase.HBaseBlocks;
import dev.blockcache.jmh.hbase.HBaseBucketDrain;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.io.hfile.bucket.BucketCache;

/**
 * HBase 2.6's {@code BucketCache} on its {@code file:} engine (default bucket sizes, 3 writer threads, queues of
 * 64), every block cached and written before measurement. A read is {@code getBlock(key, caching, repeat=false,
 * updateMetrics)}: HBase reads the slot from the file into a new buffer and deserialises the block, which the caller
 * releases, as the adapter does after reading its serialized length. HBase's file engine has no O_DIRECT.
 *
 * <p>Thread-safety: as HBase's {@code BucketCache}.
 */
final class HBaseFileReader implements FileReader {
  private static final int WRITER_THREADS = 3;
  private static final int WRITER_QUEUE_LENGTH = 64;
  /** Populating waits for queue room instead of dropping blocks (only gets are measured). */
  private static final long POPULATE_QUEUE_WAIT_MS = 60_000;

  private final BucketCache cache;
  private final BlockCacheKey[] keys;

  HBaseFileReader(Path file, int blocks, int blockSize) throws IOException {
    long capacity = (long) blocks * (blockSize + 2048) * 3 / 2 + (64L << 20);
    Configuration conf = new Configuration(false);
    conf.setLong(BucketCache.QUEUE_ADDITION_WAIT_TIME, POPULATE_QUEUE_WAIT_MS);
    cache = new BucketCache("file:" + file, capacity, blockSize, null, WRITER_THREADS, WRITER_QUEUE_LENGTH, null,
        BucketCache.DEFAULT_ERROR_TOLERATION_DURATION, conf);
    HFileContext context = new HFileContextBuilder().withBlockSize(blockSize).build();
    keys = new BlockCacheKey[blocks];
    byte[] payload = new byte[blockSize];
    for (int i = 0; i < blocks; i++) {
      keys[i] = new BlockCacheKey("hfile-" + (i % 16), (long) i * blockSize, true, BlockType.DATA);
      payload[0] = (byte) i;
      HFileBlock block = HBaseBlocks.dataBlock(payload, (long) i * blockSize, context);
      cache.cacheBlock(keys[i], block, false, true);
      block.release(); // the reader's reference; HBase's RAM cache holds its own until the block is written
    }
    HBaseBucketDrain.await(cache, "HBASE_BUCKET file:");
    if (cache.getBackingMap().size() != blocks) {
      throw new IllegalStateException("HBase cached " + cache.getBackingMap().size() + " of " + blocks + " blocks");
    }
  }

  @Override
  public int read(int block) {
    Cacheable cached = cache.getBlock(keys[block], true, false, true);
    if (cached == null) {
      throw new IllegalStateException("miss on block " + block + ": the benchmark measures hits only");
    }
    int length = cached.getSerializedLength();
    cached.release();
    return length;
  }

  @Override
  public void close() {
    cache.shutdown();
  }
}
