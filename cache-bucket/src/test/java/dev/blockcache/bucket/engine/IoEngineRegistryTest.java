package dev.blockcache.bucket.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.bucket.config.BucketCacheKeys;
import dev.blockcache.config.ConfigException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoEngineRegistryTest {
  private final IoEngineRegistry registry = IoEngineRegistry.withBuiltins();

  @Test
  void builtInSchemesMatchCaseInsensitively() throws IOException {
    assertEquals(Set.of("heap", "offheap", "file", "files", "mmap"), registry.schemes());
    try (IoEngine engine = registry.create("OffHeap", 4096, 4096)) {
      assertTrue(engine instanceof OffHeapIoEngine);
    }
    try (IoEngine engine = registry.create(" heap ", 4096, 4096)) {
      assertTrue(engine instanceof HeapIoEngine);
    }
  }

  @Test
  void eachBuiltInSchemeDeclaresWhatItsEnginesAre(@TempDir Path dir) throws IOException {
    for (String scheme : registry.schemes()) {
      String spec = scheme.equals("heap") || scheme.equals("offheap") ? scheme
          : scheme + ":" + dir.resolve(scheme + ".cache");
      try (IoEngine engine = registry.create(spec, 1 << 20, 1 << 20)) {
        assertEquals(engine.isMemory(), registry.makesMemoryEngine(spec.toUpperCase(Locale.ROOT).substring(0, 1)
            + spec.substring(1)), spec);
      }
    }
  }

  @Test
  void unknownSchemeNamesKeyValueAndChoices() {
    ConfigException e = assertThrows(ConfigException.class, () -> registry.create("tape:/dev/st0", 4096, 4096));
    assertEquals(BucketCacheKeys.IOENGINE, e.key());
    assertEquals("tape:/dev/st0", e.value());
    assertTrue(e.getMessage().contains("file, files, heap, mmap, offheap"), e.getMessage());
    assertThrows(ConfigException.class, () -> registry.create("  ", 4096, 4096));
  }

  @Test
  void pmemIsRefusedWithAReason() {
    ConfigException e = assertThrows(ConfigException.class, () -> registry.create("pmem:/mnt/pmem", 4096, 4096));
    assertTrue(e.getMessage().contains("not supported"), e.getMessage());
  }

  @Test
  void registeredSchemesAreUsedWithTheWholeSpec() throws IOException {
    String[] seen = new String[1];
    registry.register("file", (spec, capacity, segment) -> {
      seen[0] = spec;
      return new HeapIoEngine(capacity, segment);
    });
    try (IoEngine engine = registry.create("FILE:/tmp/x", 4096, 4096)) {
      assertEquals("FILE:/tmp/x", seen[0]);
      assertEquals(4096, engine.capacity());
    }
  }
}
