package dev.blockcache.api;

/**
 * HBase's HFile block types, so that a storage engine that speaks HBase's vocabulary can name its blocks the same
 * way. The cache itself only looks at the {@link #category()} a type maps to.
 *
 * <p>Thread-safety: immutable.
 */
public enum BlockType {
  DATA(BlockCategory.DATA),
  ENCODED_DATA(BlockCategory.DATA),
  LEAF_INDEX(BlockCategory.INDEX),
  INTERMEDIATE_INDEX(BlockCategory.INDEX),
  ROOT_INDEX(BlockCategory.INDEX),
  BLOOM_CHUNK(BlockCategory.BLOOM),
  GENERAL_BLOOM_META(BlockCategory.BLOOM),
  DELETE_FAMILY_BLOOM_META(BlockCategory.BLOOM),
  META(BlockCategory.META),
  FILE_INFO(BlockCategory.META),
  TRAILER(BlockCategory.META);

  private final BlockCategory category;

  BlockType(BlockCategory category) {
    this.category = category;
  }

  /** The category the cache files this type under. */
  public BlockCategory category() {
    return category;
  }
}
