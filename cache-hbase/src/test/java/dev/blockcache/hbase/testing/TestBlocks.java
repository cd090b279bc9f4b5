package dev.blockcache.hbase.testing;

import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileBlockBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.nio.ByteBuff;

/**
 * HFile data blocks built with HBase's own {@link HFileBlockBuilder}, as its reader builds them, for tests that need
 * a real {@link HFileBlock} without writing an HFile.
 *
 * <p>Thread-safety: stateless.
 */
public final class TestBlocks {
  private TestBlocks() {
  }

  /** A heap data block of {@code payload} zero bytes (plus header) at {@code offset} of {@code file}. */
  public static HFileBlock heap(String file, long offset, int payload) {
    ByteBuff buf = ByteBuff.wrap(ByteBuffer.allocate(HConstants.HFILEBLOCK_HEADER_SIZE + payload));
    return data(file, offset, payload, buf, ByteBuffAllocator.HEAP, false);
  }

  /**
   * A data block of {@code payload} bytes (plus header) at {@code offset} of {@code file} over {@code buf}, whose
   * first {@code header + payload} bytes are the block; {@code shared}: a shared-memory block (off-heap, reference
   * counted, as HBase's pooled reads make), released through {@code allocator}'s recycler.
   */
  public static HFileBlock data(String file, long offset, int payload, ByteBuff buf, ByteBuffAllocator allocator,
      boolean shared) {
    int header = HConstants.HFILEBLOCK_HEADER_SIZE;
    return new HFileBlockBuilder()
        .withBlockType(BlockType.DATA)
        .withOnDiskSizeWithoutHeader(payload)
        .withUncompressedSizeWithoutHeader(payload)
        .withPrevBlockOffset(-1)
        .withByteBuff(buf)
        .withFillHeader(true)
        .withOffset(offset)
        .withNextBlockOnDiskSize(-1)
        .withOnDiskDataSizeWithHeader(header + payload)
        .withHFileContext(new HFileContextBuilder().withHFileName(file).build())
        .withByteBuffAllocator(allocator)
        .withShared(shared)
        .build();
  }
}
