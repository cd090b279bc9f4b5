package dev.blockcache.sizing;

import java.util.List;

/**
 * How blocks of one size fit in the L2, as its bucket allocator packs them, and what the L2 costs outside its
 * engine. A block is stored with its header ({@code BlockHeader}: 24 bytes plus the file name) in the smallest item
 * size class that holds both; a bucket ({@code 4 ×} the largest item) holds {@code bucketBytes / itemBytes} such items
 * and the rest of the bucket is unused; the capacity is rounded down to whole buckets.
 *
 * <p>Thread-safety: immutable.
 *
 * @param ioEngine the {@code hbase.bucketcache.ioengine} value
 * @param scheme its scheme: heap, offheap, file, files or mmap
 * @param configuredBytes {@code hbase.bucketcache.size} in bytes
 * @param usableBytes the engine's size: whole buckets
 * @param bucketBytes bytes per bucket
 * @param buckets whole buckets
 * @param storedBytes header plus block bytes of one block
 * @param itemBytes the item size class a block goes into; 0 when none holds it
 * @param itemsPerBucket items of that size per bucket
 * @param blocks blocks the L2 holds when every bucket serves this size
 * @param indexHeapBytes the projected heap of the L2 index holding {@code blocks} entries
 * @param writerQueueHeapBytes heap of the blocks that fill every writer queue
 * @param fileBytes size of each engine file, for file engines; 0 otherwise
 * @param files the engine's files, for file engines; empty otherwise
 */
public record L2Fit(String ioEngine, String scheme, long configuredBytes, long usableBytes, long bucketBytes,
    long buckets, long storedBytes, long itemBytes, long itemsPerBucket, long blocks, long indexHeapBytes,
    long writerQueueHeapBytes, long fileBytes, List<String> files) {

  public L2Fit {
    files = List.copyOf(files);
  }

  /** Index heap per cached block; 0 without blocks. */
  public double indexHeapBytesPerBlock() {
    return blocks == 0 ? 0 : (double) indexHeapBytes / blocks;
  }
}
