package dev.blockcache.sizing;

import dev.blockcache.buffer.HeapBlock;
import dev.blockcache.config.L1Policy;

/**
 * How blocks of one size fit in the on-heap L1, as the L1 accounts them: each block costs its bytes plus the policy's
 * entry overhead ({@link HeapBlock#LRU_ENTRY_OVERHEAD}, {@link HeapBlock#TINYLFU_ENTRY_OVERHEAD}), and the L1 holds blocks up to the size at which eviction starts (LRU: capacity ×
 * {@code hbase.lru.blockcache.acceptable.factor}; TinyLFU: the capacity). Blocks above the policy's max block size are
 * not cached at all.
 *
 * <p>Thread-safety: immutable.
 *
 * @param policy the L1 policy
 * @param capacityBytes the L1 capacity the config reader computed
 * @param evictionStartBytes accounted bytes above which the L1 evicts
 * @param bytesPerBlock the heap one block is accounted as
 * @param blocks blocks held before eviction starts; 0 when the block exceeds the max block size
 */
public record L1Fit(L1Policy policy, long capacityBytes, long evictionStartBytes, long bytesPerBlock, long blocks) {

  /** The fit of blocks of {@code blockSize} bytes in an L1 that caches blocks of up to {@code maxBlockSize}. */
  static L1Fit of(L1Policy policy, long capacityBytes, long evictionStartBytes, long maxBlockSize, int blockSize) {
    long overhead = policy == L1Policy.LRU ? HeapBlock.LRU_ENTRY_OVERHEAD : HeapBlock.TINYLFU_ENTRY_OVERHEAD;
    long perBlock = (long) blockSize + overhead;
    long blocks = blockSize > maxBlockSize ? 0 : evictionStartBytes / perBlock;
    return new L1Fit(policy, capacityBytes, evictionStartBytes, perBlock, blocks);
  }
}
