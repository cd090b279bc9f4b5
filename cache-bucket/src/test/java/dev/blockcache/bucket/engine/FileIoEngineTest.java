package dev.blockcache.bucket.engine;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class FileIoEngineTest extends IoEngineContractTest {
  @TempDir
  Path dir;

  @Override
  protected IoEngine newEngine(long capacity, int segmentSize) throws IOException {
    return FileIoEngine.open("file:" + dir.resolve("cache.bin"), capacity, segmentSize, FileEngineOptions.DEFAULTS);
  }
}
