package dev.blockcache.bucket;

import dev.blockcache.api.BlockCache;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/** The contract on a {@code file:} L2 whose writers are drained after every put, so every get reads the file. */
class FileBucketCacheContractTest extends WrittenBucketCacheContractTest {
  @TempDir
  Path dir;

  private final AtomicInteger files = new AtomicInteger();

  @Override
  protected BlockCache newCache(long capacity, int maxBlockSize) {
    Path file = dir.resolve("cache-" + files.incrementAndGet() + ".bin");
    return BucketCaches.create(BucketCaches.config("file:" + file, capacity).build());
  }
}
