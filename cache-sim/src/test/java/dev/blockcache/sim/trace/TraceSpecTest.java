package dev.blockcache.sim.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceSpecTest {
  @TempDir Path dir;

  @Test
  void aBundledNameFindsItsFileAndTheDirectoryNamesTheFormat() throws IOException {
    Files.createDirectories(dir.resolve("lirs"));
    Files.writeString(dir.resolve("lirs/multi1.trace.gz"), "");
    Files.writeString(dir.resolve("lirs/multi10.trace.gz"), "");
    TraceSpec spec = TraceSpec.parse("lirs/multi1", dir);
    assertEquals(new TraceSpec("lirs/multi1", TraceFormat.LIRS, dir.resolve("lirs/multi1.trace.gz")), spec);
  }

  @Test
  void aFormatAndPathNameAnyFile() {
    TraceSpec spec = TraceSpec.parse("cache2k:/data/web12.trace.xz", dir);
    assertEquals(new TraceSpec("web12.trace.xz", TraceFormat.CACHE2K, Path.of("/data/web12.trace.xz")), spec);
  }

  @Test
  void errorsNameWhatIsAccepted() {
    IllegalArgumentException format = assertThrows(IllegalArgumentException.class,
        () -> TraceSpec.parse("arc/x", dir));
    assertTrue(format.getMessage().contains("accepted: text, lirs, address, gradle, cache2k, corda, scarab"),
        format.getMessage());
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> TraceSpec.parse("lirs/multi1", dir));
    assertTrue(missing.getMessage().contains("unpack the traces first"), missing.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TraceSpec.parse("multi1", dir));
  }
}
