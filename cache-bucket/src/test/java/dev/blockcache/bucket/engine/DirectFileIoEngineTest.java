package dev.blockcache.bucket.engine;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@code file:} with O_DIRECT: every unaligned read and write goes through the aligned covering pages. */
class DirectFileIoEngineTest extends IoEngineContractTest {
  @TempDir
  Path dir;

  @Override
  protected IoEngine newEngine(long capacity, int segmentSize) throws IOException {
    return FileIoEngine.open("files:" + dir.resolve("a.bin") + "," + dir.resolve("b.bin"), capacity, segmentSize,
        FileEngineOptions.DEFAULTS.withDirectIo(true));
  }
}
