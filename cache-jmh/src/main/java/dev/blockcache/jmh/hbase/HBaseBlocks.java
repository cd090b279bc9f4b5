package dev.blockcache.jmh.hbase;

import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileBlockBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.nio.ByteBuff;

/**
 * Builds the on-heap DATA {@link HFileBlock}s that HBase's caches hold in the benchmarks: {@code content} behind
 * HBase's block header, as its reader produces them after reading a block from disk.
 *
 * <p>Thread-safety: stateless.
 */
public final class HBaseBlocks {
  private HBaseBlocks() {}

  /** An on-heap DATA block of {@code content} at {@code offset}, holding one reference: the caller's. */
  public static HFileBlock dataBlock(byte[] content, long offset, HFileContext context) {
    int header = HConstants.HFILEBLOCK_HEADER_SIZE;
    byte[] bytes = new byte[header + content.length];
    System.arraycopy(content, 0, bytes, header, content.length);
    return new HFileBlockBuilder()
        .withBlockType(BlockType.DATA)
        .withOnDiskSizeWithoutHeader(content.length)
        .withUncompressedSizeWithoutHeader(content.length)
        .withOnDiskDataSizeWithHeader(header + content.length)
        .withPrevBlockOffset(-1)
        .withOffset(offset)
        .withNextBlockOnDiskSize(-1)
        .withFillHeader(true)
        .withByteBuff(ByteBuff.wrap(ByteBuffer.wrap(bytes)))
        .withHFileContext(context)
        .withByteBuffAllocator(ByteBuffAllocator.HEAP)
        .withShared(false)
        .build();
  }
}
