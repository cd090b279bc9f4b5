package dev.blockcache.hbase;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.ReadOptions;
import dev.blockcache.bucket.BucketCache;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CacheableDeserializer;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.nio.SingleByteBuff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an L2 hit into an HBase {@link Cacheable}: finds the block's deserializer by the identifier stored in front
 * of it ({@link SerializedBlock}) and deserializes from HBase's {@link ByteBuff}.
 *
 * <h2>Ownership</h2>
 * <ol>
 *   <li>The L2's get hands this class one reference to a read-only view.</li>
 *   <li>Direct view: it is wrapped, without copying, as a {@code ByteBuff} whose recycler releases the view. The
 *       deserialized block shares that {@code ByteBuff}'s reference count, so HBase's release of the block's last
 *       reference releases our view (and unpins its slot). If deserializing fails the {@code ByteBuff} is released
 *       here.</li>
 *   <li>Heap view: HBase's {@code ByteBuff} cannot address a read-only heap buffer, and HBase never releases an
 *       array-backed block, so the bytes are copied onto the heap and the view is released here before returning.</li>
 * </ol>
 *
 * <p>Thread-safety: stateless apart from the thread-safe L2 and stats it reads and counts through.
 */
final class BlockReader {
  private static final Logger LOG = LoggerFactory.getLogger(BlockReader.class);

  private final BucketCache l2;
  private final KnownDeserializers deserializers = new KnownDeserializers();

  BlockReader(BucketCache l2) {
    this.l2 = l2;
  }

  /** The block cached under {@code key} as a Cacheable the caller releases, or null on a miss. */
  Cacheable read(BlockKey key, ReadOptions options) {
    ByteBuf view = l2.getBlock(key, options);
    if (view == null) {
      return null;
    }
    int id = SerializedBlock.deserializerId(view);
    CacheableDeserializer<Cacheable> deserializer = deserializers.get(id);
    if (deserializer == null) {
      view.release();
      LOG.warn("L2 block {} names deserializer {}, unknown to this JVM: evicted, served as a miss", key, id);
      l2.evictBlock(key);
      return null;
    }
    ByteBuff buff = wrap(view);
    try {
      return deserializer.deserialize(buff, ByteBuffAllocator.HEAP);
    } catch (IOException | RuntimeException e) {
      buff.release();
      LOG.warn("L2 block {} could not be deserialized: evicted, served as a miss", key, e);
      l2.evictBlock(key);
      return null;
    }
  }

  /** The serialized block inside {@code view} as a ByteBuff positioned at 0; takes over the view's reference. */
  private static ByteBuff wrap(ByteBuf view) {
    int start = view.readerIndex() + SerializedBlock.PREFIX_LENGTH;
    int length = SerializedBlock.blockLength(view);
    if (view.isDirect()) {
      // A SingleByteBuff directly: ByteBuff.wrap would take an array for the one buffer, an allocation per hit.
      return new SingleByteBuff(view::release, view.nioBuffer(start, length));
    }
    byte[] copy = new byte[length];
    try {
      view.getBytes(start, copy);
    } finally {
      view.release();
    }
    return ByteBuff.wrap(ByteBuffer.wrap(copy));
  }
}
