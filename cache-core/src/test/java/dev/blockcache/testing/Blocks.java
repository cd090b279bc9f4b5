package dev.blockcache.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.blockcache.api.BlockCache;
import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.api.CacheResult;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Test payloads that can be verified against their key: every byte is a function of the key's hash, the byte's
 * position and the block length, so a block served for the wrong key, truncated, or overwritten fails
 * {@link #verify}.
 *
 * <p>Thread-safety: stateless.
 */
public final class Blocks {
  private Blocks() {}

  /** A pooled direct buffer of {@code length} payload bytes for {@code key}; the caller owns and releases it. */
  public static ByteBuf payload(BlockKey key, int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = expected(key, length, i);
    }
    // One bulk write: at PARANOID the leak detector records a stack trace on every access of a pooled buffer.
    return ByteBufAllocator.DEFAULT.directBuffer(length, length).writeBytes(bytes);
  }

  /**
   * Caches {@code key}'s payload of {@code length} bytes as a data block with {@code cacheBlock} (a copy) and releases
   * the source; the cache owns what it keeps.
   */
  public static CacheResult cachePayload(BlockCache cache, BlockKey key, int length) {
    ByteBuf source = payload(key, length);
    try {
      return cache.cacheBlock(key, source, CacheOptions.of(BlockCategory.DATA));
    } finally {
      source.release();
    }
  }

  /** The byte at {@code index} of {@code key}'s payload of {@code length} bytes. */
  public static byte expected(BlockKey key, int length, int index) {
    long h = key.hash64() + 31L * length + index * 0x9E3779B97F4A7C15L;
    return (byte) (h ^ (h >>> 29) ^ (h >>> 47));
  }

  /** Whether {@code block}'s readable bytes are exactly {@code key}'s payload of that length. */
  public static boolean matches(BlockKey key, ByteBuf block) {
    int length = block.readableBytes();
    byte[] bytes = new byte[length];
    block.getBytes(block.readerIndex(), bytes);
    for (int i = 0; i < length; i++) {
      if (bytes[i] != expected(key, length, i)) {
        return false;
      }
    }
    return true;
  }

  /** Asserts that {@code block} holds {@code key}'s payload of {@code length} bytes. */
  public static void verify(BlockKey key, int length, ByteBuf block) {
    assertEquals(length, block.readableBytes(), "length of " + key);
    if (!matches(key, block)) {
      throw new AssertionError("wrong payload served for " + key);
    }
  }
}
