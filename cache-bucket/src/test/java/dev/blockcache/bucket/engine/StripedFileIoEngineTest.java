package dev.blockcache.bucket.engine;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@code files:} over three files: segments alternate between them. */
class StripedFileIoEngineTest extends IoEngineContractTest {
  @TempDir
  Path dir;

  @Override
  protected IoEngine newEngine(long capacity, int segmentSize) throws IOException {
    String spec = "files:" + dir.resolve("a.bin") + "," + dir.resolve("b.bin") + "," + dir.resolve("c.bin");
    return FileIoEngine.open(spec, capacity, segmentSize, FileEngineOptions.DEFAULTS);
  }
}
