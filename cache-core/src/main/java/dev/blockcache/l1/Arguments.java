package dev.blockcache.l1;

import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import io.netty.buffer.ByteBuf;
import java.util.Objects;

/**
 * Argument checks shared by the caches' insert methods: a null argument fails with a {@link NullPointerException}
 * naming it.
 *
 * <p>Thread-safety: stateless.
 */
public final class Arguments {
  private Arguments() {}

  /** Checks the arguments of {@code cacheBlock} and {@code handOver}. */
  public static void check(BlockKey key, ByteBuf block, CacheOptions options) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(block, "block");
    Objects.requireNonNull(options, "options");
  }

  /**
   * Releases the reference a {@code handOver} took over, whatever happened to the insert (a null {@code block} has
   * nothing to release and was already reported).
   */
  public static void releaseHandedOver(ByteBuf block) {
    if (block != null) {
      block.release();
    }
  }
}
