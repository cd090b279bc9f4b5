package dev.blockcache.hbase;

import dev.blockcache.bucket.BucketCache;
import dev.blockcache.bucket.slot.CachedEntry;
import java.util.Iterator;
import org.apache.hadoop.hbase.io.hfile.BlockPriority;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.CachedBlock;

/**
 * The L2's blocks as HBase's {@link CachedBlock}s, for HBase's web UI and tools: file name, offset, stored size and
 * priority as the L2 holds them. The L2 records a block's category, not its exact HBase type, so the type reported is
 * the category's main type ({@code DATA}, {@code LEAF_INDEX}, {@code BLOOM_CHUNK}, {@code META}); inside a combined
 * cache the L2 holds data blocks only. The L2 keeps no insertion time: {@link CachedBlock#getCachedTime()} is 0.
 *
 * <p>Thread-safety: an iterator belongs to one thread; see {@link BucketCache#entries()} for what it sees.
 */
final class CachedBlocks {
  private CachedBlocks() {}

  /** A lazy iterator over {@code l2}'s blocks in slots. */
  static Iterator<CachedBlock> of(BucketCache l2) {
    Iterator<CachedEntry> entries = l2.entries();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return entries.hasNext();
      }

      @Override
      public CachedBlock next() {
        return new Block(entries.next());
      }
    };
  }

  /** One entry; compared by file name, then offset, as HBase's UI sorts blocks. */
  private static final class Block implements CachedBlock {
    private final CachedEntry entry;

    Block(CachedEntry entry) {
      this.entry = entry;
    }

    @Override
    public BlockPriority getBlockPriority() {
      return BlockPriority.valueOf(entry.priority().name());
    }

    @Override
    public BlockType getBlockType() {
      return switch (entry.category()) {
        case INDEX -> BlockType.LEAF_INDEX;
        case BLOOM -> BlockType.BLOOM_CHUNK;
        case META -> BlockType.META;
        default -> BlockType.DATA;
      };
    }

    @Override
    public long getOffset() {
      return entry.key().offset();
    }

    @Override
    public long getSize() {
      return entry.storedLength();
    }

    @Override
    public long getCachedTime() {
      return 0;
    }

    @Override
    public String getFilename() {
      return entry.key().file();
    }

    @Override
    public int compareTo(CachedBlock other) {
      int byFile = getFilename().compareTo(other.getFilename());
      return byFile != 0 ? byFile : Long.compare(getOffset(), other.getOffset());
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Block block && block.entry.key().equals(entry.key());
    }

    @Override
    public int hashCode() {
      return entry.key().hashCode();
    }

    @Override
    public String toString() {
      return entry.key() + " " + entry.category() + " " + entry.priority() + " " + entry.storedLength() + " B";
    }
  }
}
