package dev.blockcache.hbase;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.BlockType;
import org.apache.hadoop.hbase.io.hfile.BlockCacheKey;

/**
 * Maps HBase's block names onto ours: a {@link BlockCacheKey} (HFile name, offset, primary-replica flag, block type)
 * to a {@link BlockKey} (file, offset) and HBase's block type to our {@link BlockType}, whose category decides how the
 * block is counted and prioritised.
 *
 * <p>The primary-replica flag is not part of the key: HBase's own {@code BlockCacheKey.equals} ignores it too (a
 * secondary replica reads the same HFile, so the same block). It only feeds HBase's primary hit/miss counters.
 *
 * <p>Thread-safety: stateless.
 */
final class HBaseKeys {
  private HBaseKeys() {}

  /** Our key for HBase's: same file name, same offset. */
  static BlockKey key(BlockCacheKey key) {
    return BlockKey.of(key.getHfileName(), key.getOffset());
  }

  /**
   * Our type for HBase's. A key without a type (HBase's two-argument {@code BlockCacheKey} constructor means a data
   * block) is {@link BlockType#DATA}; HBase's v1 index type, which our enum does not name, is an index block.
   */
  static BlockType type(org.apache.hadoop.hbase.io.hfile.BlockType type) {
    if (type == null) {
      return BlockType.DATA;
    }
    switch (type) {
      case DATA:
        return BlockType.DATA;
      case ENCODED_DATA:
        return BlockType.ENCODED_DATA;
      case LEAF_INDEX:
        return BlockType.LEAF_INDEX;
      case INTERMEDIATE_INDEX:
        return BlockType.INTERMEDIATE_INDEX;
      case ROOT_INDEX:
      case INDEX_V1:
        return BlockType.ROOT_INDEX;
      case BLOOM_CHUNK:
        return BlockType.BLOOM_CHUNK;
      case GENERAL_BLOOM_META:
        return BlockType.GENERAL_BLOOM_META;
      case DELETE_FAMILY_BLOOM_META:
        return BlockType.DELETE_FAMILY_BLOOM_META;
      case FILE_INFO:
        return BlockType.FILE_INFO;
      case TRAILER:
        return BlockType.TRAILER;
      default:
        return BlockType.META;
    }
  }
}
