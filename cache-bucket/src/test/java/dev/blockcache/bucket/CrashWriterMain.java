package dev.blockcache.bucket;

import dev.blockcache.api.BlockCategory;
import dev.blockcache.api.BlockKey;
import dev.blockcache.api.CacheOptions;
import dev.blockcache.testing.Blocks;
import io.netty.buffer.ByteBuf;

/**
 * Child process of {@link CrashRestartTest}: opens the persistent file L2, then writes blocks of file {@code args[1]}
 * forever, printing how many it has offered every 100 blocks, until the parent kills it with kill -9.
 */
public final class CrashWriterMain {
  private CrashWriterMain() {}

  public static void main(String[] args) {
    BucketCache cache = BucketCaches.create(CrashRestartTest.config(java.nio.file.Path.of(args[0])));
    cache.start();
    String file = args[1];
    for (int i = 0; ; i++) {
      BlockKey key = CrashRestartTest.key(file, i);
      ByteBuf block = Blocks.payload(key, CrashRestartTest.length(i));
      try {
        cache.cacheBlock(key, block, CacheOptions.of(BlockCategory.DATA));
      } finally {
        block.release();
      }
      if (i % 100 == 99) {
        System.out.println("wrote " + (i + 1));
        System.out.flush();
      }
    }
  }
}
