package dev.blockcache.jmh.l2;

import dev.blockcache.jmh.hbase.HBaseBlocks;
import dev.blockcache.jmh.l1.Keys;
import dev.blockcache.jmh.l1.ThreeBytes;
import dev.blockcache.jmh.workload.KeySource;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;

/**
 * A competitor driven through HBase 2.6's {@code BlockCache} interface, as HBase's reader drives it: {@link HFileBlock}s
 * in, HBase's blocks out. Subclasses make the cache and say how to wait for its writers and count its blocks.
 *
 * <p>Reference counting: a block made per insert holds one reference, the reader's, which the adapter releases after
 * {@code cacheBlock} (a cache that keeps the block retains its own); a prepared source block keeps the adapter's
 * reference until {@link #close}, so it can be offered again. {@code getBlock} returns a block holding one reference
 * for the caller, which the adapter releases after reading three bytes of it through {@code getBufferWithoutHeader()},
 * as HBase's scanner reads a block. A get builds its {@link BlockCacheKey} from the file's name and the offset, as
 * HBase's {@code HFileReaderImpl} does, unless the setup asks for prebuilt keys (HBase has no per-file handle, so
 * {@link KeySource#FILE_HANDLE} builds from the name too).
 *
 * <p>Thread-safety: as {@link L2Adapter}.
 */
abstract class HBaseApiAdapter implements L2Adapter {
  /** Whether the adapter makes its key objects once (a get allocates none) or per call (heap footprint runs). */
  enum KeyObjects { RETAINED, PER_CALL }

  final String name;
  private final BlockCache cache;
  final Keys names;
  private final int keyCount;
  /** The key objects, or null with {@link KeyObjects#PER_CALL}. */
  private final BlockCacheKey[] keys;
  private final HFileContext context;
  private final KeySource lookups;
  private HFileBlock[] sources;

  HBaseApiAdapter(String name, L2Setup setup, BlockCache cache, KeyObjects keyObjects) {
    this.name = name;
    this.cache = cache;
    this.names = new Keys(setup.blockSize());
    this.keyCount = setup.keys();
    this.keys = keyObjects == KeyObjects.RETAINED ? new BlockCacheKey[keyCount] : null;
    for (int i = 0; keys != null && i < keyCount; i++) {
      keys[i] = newKey(i);
    }
    this.context = new HFileContextBuilder().withBlockSize(setup.blockSize()).build();
    this.lookups = setup.keySource();
    if (lookups == KeySource.PREBUILT && keys == null) {
      throw new IllegalArgumentException(name + ": prebuilt lookup keys need the adapter's key objects");
    }
  }

  private BlockCacheKey newKey(int i) {
    return new BlockCacheKey(names.file(i), names.offset(i), true, BlockType.DATA);
  }

  private BlockCacheKey key(int i) {
    return keys != null ? keys[i] : newKey(i);
  }

  /** An on-heap DATA block with key {@code i}'s content, holding one reference: the caller's. */
  private HFileBlock block(int i) {
    return HBaseBlocks.dataBlock(names.content(i), names.offset(i), context);
  }

  @Override
  public void prepareSources() {
    sources = new HFileBlock[keyCount];
    for (int i = 0; i < keyCount; i++) {
      sources[i] = block(i);
    }
  }

  /** HBase's cacheBlock returns nothing; a refused block shows as a failed insertion in the cache's statistics. */
  @Override
  public boolean insert(int i) {
    long failed = cache.getStats().getFailedInserts();
    if (sources != null) {
      cache.cacheBlock(key(i), sources[i], false, true);
    } else {
      HFileBlock block = block(i);
      cache.cacheBlock(key(i), block, false, true);
      block.release(); // the reader's reference; a cache that keeps the block holds its own
    }
    return cache.getStats().getFailedInserts() == failed;
  }

  @Override
  public int get(int i) {
    BlockCacheKey key = lookups == KeySource.PREBUILT ? keys[i] : newKey(i);
    Cacheable block = cache.getBlock(key, true, false, true);
    if (block == null) {
      throw L2Adapter.miss(name, i);
    }
    int sum = ThreeBytes.of(((HFileBlock) block).getBufferWithoutHeader());
    block.release();
    return sum;
  }

  @Override
  public void clear() {
    for (int f = 0; f < Keys.FILES; f++) {
      cache.evictBlocksByHfileName(names.file(f));
    }
  }

  @Override
  public void close() {
    cache.shutdown();
    if (sources != null) {
      for (HFileBlock b : sources) {
        b.release();
      }
    }
  }
}
