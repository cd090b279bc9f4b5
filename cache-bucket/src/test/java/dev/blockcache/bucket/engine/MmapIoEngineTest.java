package dev.blockcache.bucket.engine;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class MmapIoEngineTest extends IoEngineContractTest {
  @TempDir
  Path dir;

  @Override
  protected IoEngine newEngine(long capacity, int segmentSize) throws IOException {
    return MmapIoEngine.open("mmap:" + dir.resolve("cache.bin"), capacity, segmentSize, FileEngineOptions.DEFAULTS);
  }
}
