package dev.blockcache.hbase;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;

/**
 * The bytes this adapter stores in the L2 for one HBase {@link Cacheable}: the identifier of the block's deserializer
 * (as {@code CacheableDeserializerIdManager} assigned it), then the block as {@link Cacheable#serialize} writes it
 * with the next block's metadata included.
 *
 * <pre>
 *   0               4                                              4 + serializedLength
 *   +---------------+----------------------------------------------+
 *   | deserializer  | Cacheable.serialize(dst, true): for an        |
 *   | id (int, BE)  | HFileBlock, header + data + checksums, then   |
 *   |               | the block metadata (checksum flag, offset,    |
 *   |               | next block's on-disk size)                    |
 *   +---------------+----------------------------------------------+
 * </pre>
 *
 * <p>Deserializer identifiers are assigned per JVM in class-initialisation order; HBase 2.6 registers exactly one
 * (HFileBlock's), so the identifier stored in a persisted L2 resolves to the same deserializer after a restart.
 *
 * <p>Thread-safety: stateless.
 */
final class SerializedBlock {
  /** Bytes before the serialized block: the deserializer identifier. */
  static final int PREFIX_LENGTH = Integer.BYTES;
  /** Where an HFile block's header keeps its on-disk size without header: after its 8-byte magic. */
  static final int ON_DISK_SIZE_OFFSET = 8;

  private SerializedBlock() {}

  /**
   * {@code block} serialized behind its deserializer identifier into a pooled direct buffer, or null when the block
   * has nothing to serialize. The caller owns the returned buffer's one reference and releases it; {@code block} is
   * only read.
   *
   * <p>Direct, not heap: a pooled allocator keeps whole chunks of the arenas it has used, and a RegionServer's
   * caching threads would otherwise pin megabytes of heap per arena, for a buffer that lives for one call.
   */
  static ByteBuf serialize(Cacheable block) {
    int length = block.getSerializedLength();
    if (length <= 0) {
      return null;
    }
    ByteBuf out = PooledByteBufAllocator.DEFAULT.directBuffer(PREFIX_LENGTH + length, PREFIX_LENGTH + length);
    try {
      out.writeInt(block.getDeserializer().getDeserializerIdentifier());
      // A pooled buffer's nioBuffer shares its memory: serialize writes straight into out, no intermediate copy.
      ByteBuffer destination = out.nioBuffer(PREFIX_LENGTH, length);
      block.serialize(destination, true);
      out.writerIndex(PREFIX_LENGTH + length);
      return out;
    } catch (RuntimeException | Error e) {
      out.release();
      throw e;
    }
  }

  /** The deserializer identifier stored at the front of {@code stored} (its reader index is not moved). */
  static int deserializerId(ByteBuf stored) {
    return stored.getInt(stored.readerIndex());
  }

  /**
   * The on-disk size (header included) of the HFile block stored in {@code stored}, as HBase's
   * {@code HFileBlock.getOnDiskSizeWithHeader()} gives it, or 0 when {@code stored} does not hold an HFile block. Read
   * from the block's own header (its on-disk size without header, at {@value #ON_DISK_SIZE_OFFSET}) and from the
   * metadata behind it (whether HBase checksums are used, which sets the header's length). {@code stored} is only
   * read.
   */
  static int onDiskSizeWithHeader(ByteBuf stored) {
    int start = stored.readerIndex();
    int end = stored.writerIndex();
    if (deserializerId(stored) != HFileBlock.BLOCK_DESERIALIZER.getDeserializerIdentifier()
        || end - start < PREFIX_LENGTH + HConstants.HFILEBLOCK_HEADER_SIZE + HFileBlock.BLOCK_METADATA_SPACE) {
      return 0;
    }
    boolean hbaseChecksum = stored.getByte(end - HFileBlock.BLOCK_METADATA_SPACE) == 1;
    int header = hbaseChecksum ? HConstants.HFILEBLOCK_HEADER_SIZE : HConstants.HFILEBLOCK_HEADER_SIZE_NO_CHECKSUM;
    return stored.getInt(start + PREFIX_LENGTH + ON_DISK_SIZE_OFFSET) + header;
  }

  /** The length of the serialized block inside {@code stored}. */
  static int blockLength(ByteBuf stored) {
    return stored.readableBytes() - PREFIX_LENGTH;
  }
}
