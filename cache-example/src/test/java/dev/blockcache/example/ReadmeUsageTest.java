package dev.blockcache.example;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The README's usage example is compiled code: every line of its first Java block is a line of the example engine's
 * sources ({@link CachedRowReader}, {@link StorageEngineExample}), which this module compiles and
 * {@link StorageEngineExampleTest} runs.
 */
class ReadmeUsageTest {
  private static final Path README = Path.of("..", "README.md");
  private static final Path SOURCES = Path.of("src", "main", "java", "dev", "blockcache", "example");

  @Test
  void everyLineOfTheReadmeUsageExampleIsInTheExampleSources() throws Exception {
    Set<String> sourceLines = new HashSet<>();
    for (String name : List.of("CachedRowReader.java", "StorageEngineExample.java")) {
      Files.readAllLines(SOURCES.resolve(name)).forEach(line -> sourceLines.add(line.trim()));
    }
    List<String> usage = usageBlock(Files.readAllLines(README));
    assertFalse(usage.isEmpty(), "README.md has no ```java block under ## Usage");
    for (String line : usage) {
      String code = line.trim();
      if (!code.isEmpty() && !code.startsWith("//") && !code.startsWith("import ") && !code.equals("}")
          && !code.equals("...")) {
        assertTrue(sourceLines.contains(code), "README line not in the example sources: " + code);
      }
    }
  }

  /** The lines of the first ```java block after the "## Usage" heading. */
  private static List<String> usageBlock(List<String> readme) {
    List<String> block = new ArrayList<>();
    boolean inUsage = false;
    boolean inCode = false;
    for (String line : readme) {
      if (line.startsWith("## ")) {
        inUsage = line.equals("## Usage");
      } else if (inUsage && !inCode && line.equals("```java")) {
        inCode = true;
      } else if (inCode && line.equals("```")) {
        return block;
      } else if (inCode) {
        block.add(line);
      }
    }
    return block;
  }
}
