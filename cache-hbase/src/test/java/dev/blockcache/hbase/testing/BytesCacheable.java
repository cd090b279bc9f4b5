package dev.blockcache.hbase.testing;

import java.nio.ByteBuffer;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.Cacheable;
import org.apache.hadoop.hbase.io.hfile.CacheableDeserializer;
import org.apache.hadoop.hbase.io.hfile.CacheableDeserializerIdManager;
import org.apache.hadoop.hbase.nio.ByteBuff;

/**
 * A test {@link Cacheable} of raw bytes, with its own deserializer registered with HBase's
 * {@link CacheableDeserializerIdManager}: a deserialized instance keeps the {@link ByteBuff} it was read from, so a
 * test can see the bytes a cache handed out and release them as HBase releases a shared-memory block.
 *
 * <p>Thread-safety: instances are not shared between threads by the tests.
 */
public final class BytesCacheable implements Cacheable {
  public static final CacheableDeserializer<Cacheable> DESERIALIZER = new CacheableDeserializer<>() {
    @Override
    public Cacheable deserialize(ByteBuff b, ByteBuffAllocator allocator) {
      return new BytesCacheable(b);
    }

    @Override
    public int getDeserializerIdentifier() {
      return ID;
    }
  };
  private static final int ID = CacheableDeserializerIdManager.registerDeserializer(DESERIALIZER);

  private final byte[] bytes;
  private final ByteBuff buff;

  /** A block to cache. */
  public BytesCacheable(byte[] bytes) {
    this.bytes = bytes.clone();
    this.buff = null;
  }

  private BytesCacheable(ByteBuff buff) {
    this.bytes = null;
    this.buff = buff;
  }

  /** The bytes: the cached copy's, read through the ByteBuff the cache handed out. */
  public byte[] bytes() {
    if (bytes != null) {
      return bytes.clone();
    }
    byte[] out = new byte[buff.limit()];
    buff.get(0, out, 0, out.length);
    return out;
  }

  @Override
  public int getSerializedLength() {
    return bytes.length;
  }

  @Override
  public void serialize(ByteBuffer destination, boolean includeNextBlockMetadata) {
    destination.put(bytes);
    destination.flip();
  }

  @Override
  public CacheableDeserializer<Cacheable> getDeserializer() {
    return DESERIALIZER;
  }

  @Override
  public BlockType getBlockType() {
    return BlockType.DATA;
  }

  @Override
  public long heapSize() {
    return 64L + (bytes == null ? 0 : bytes.length);
  }

  @Override
  public int refCnt() {
    return buff == null ? 0 : buff.refCnt();
  }

  @Override
  public Cacheable retain() {
    if (buff != null) {
      buff.retain();
    }
    return this;
  }

  @Override
  public boolean release() {
    return buff != null && buff.release();
  }
}
