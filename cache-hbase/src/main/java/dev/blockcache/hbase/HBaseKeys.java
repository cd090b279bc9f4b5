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
    return switch (type) {
      case DATA -> BlockType.DATA;
      case ENCODED_DATA -> BlockType.ENCODED_DATA;
      case LEAF_INDEX -> BlockType.LEAF_INDEX;
      case INTERMEDIATE_INDEX -> BlockType.INTERMEDIATE_INDEX;
      case ROOT_INDEX, INDEX_V1 -> BlockType.ROOT_INDEX;
      case BLOOM_CHUNK -> BlockType.BLOOM_CHUNK;
      case GENERAL_BLOOM_META -> BlockType.GENERAL_BLOOM_META;
      case DELETE_FAMILY_BLOOM_META -> BlockType.DELETE_FAMILY_BLOOM_META;
      case FILE_INFO -> BlockType.FILE_INFO;
      case TRAILER -> BlockType.TRAILER;
      default -> BlockType.META;
    };
  }
}
