package dev.blockcache.hbase;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.nio.ByteBuff;

/**
 * An HFile block in the layout the L2 stores ({@link SerializedBlock}) without a copy of its bytes: a composite of
 * the deserializer identifier, the block's own buffer and its metadata (HBase's {@code HFileBlock.getMetaData}), which
 * holds a reference to the block until it is released. {@link HBaseL2Cache#cacheBlock} hands it to the L2, whose
 * writer copies it into its slot on the writer's thread, as HBase's own BucketCache writers serialize a block that
 * its caller left in its RAM cache; the reader's thread does no copy of the block.
 *
 * <h2>Ownership</h2>
 * {@link #of} retains the block once (HBase's reference count: a pooled off-heap block stays allocated); the returned
 * buffer has one reference, the caller's, and its last release releases that retained reference. The block's bytes
 * must not change meanwhile, which holds for an HFile block once read. Tracked by netty's leak detector.
 *
 * <p>Thread-safety: as any {@link ByteBuf}: reference counting is thread-safe, reading indexes are not.
 */
final class HandedOverBlock extends CompositeByteBuf {
  private static final ResourceLeakDetector<ByteBuf> LEAKS =
      ResourceLeakDetectorFactory.instance().newResourceLeakDetector(ByteBuf.class);

  private final HFileBlock block;
  private final ResourceLeakTracker<ByteBuf> leak;

  private HandedOverBlock(HFileBlock block, ByteBuf... parts) {
    super(ByteBufAllocator.DEFAULT, false, parts.length, parts);
    this.block = block;
    this.leak = LEAKS.track(this);
  }

  /**
   * {@code block} in the stored layout without copying its bytes, or null when it is not an HFile block held in one
   * buffer whose serialized form is that buffer and its metadata (the caller then serializes it by copying). On a
   * non-null result {@code block} has been retained once for the returned buffer (see the class notes); the caller
   * owns the returned buffer's reference either way it ends (cached, refused), and {@code block} stays the caller's.
   */
  static ByteBuf of(Cacheable block) {
    if (!(block instanceof HFileBlock hfileBlock)) {
      return null;
    }
    ByteBuff data = hfileBlock.getBufferReadOnly();
    ByteBuffer[] buffers = data.nioByteBuffers();
    if (buffers.length != 1) {
      return null; // a block over several buffers: serialize copies it
    }
    ByteBuffer bytes = buffers[0].duplicate();
    ByteBuffer metadata = hfileBlock.getMetaData(ByteBuffer.allocate(HFileBlock.BLOCK_METADATA_SPACE));
    if (data.position() != 0 || bytes.position() != 0 || bytes.limit() != data.limit()
        || bytes.remaining() + metadata.remaining() != hfileBlock.getSerializedLength()) {
      return null; // not the layout serialize writes: let it write it
    }
    ByteBuf identifier = Unpooled.buffer(SerializedBlock.PREFIX_LENGTH, SerializedBlock.PREFIX_LENGTH)
        .writeInt(hfileBlock.getDeserializer().getDeserializerIdentifier());
    hfileBlock.retain();
    try {
      return new HandedOverBlock(hfileBlock, identifier, Unpooled.wrappedBuffer(bytes),
          Unpooled.wrappedBuffer(metadata));
    } catch (RuntimeException | Error e) {
      hfileBlock.release(); // no hand-over exists to release it
      throw e;
    }
  }

  @Override
  protected void deallocate() {
    try {
      super.deallocate();
    } finally {
      if (leak != null) {
        leak.close(this);
      }
      block.release();
    }
  }
}
