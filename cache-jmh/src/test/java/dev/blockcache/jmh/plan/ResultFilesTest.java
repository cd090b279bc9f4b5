package dev.blockcache.jmh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.blockcache.jmh.report.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultFilesTest {
  @TempDir
  Path dir;

  @Test
  void joinsTheResultsOfEveryPartInRunOrder() throws Exception {
    Path a = Files.writeString(dir.resolve("a.json"), "[\n  {\"benchmark\": \"x\"},\n  {\"benchmark\": \"y\"}\n]\n");
    Path empty = Files.writeString(dir.resolve("empty.json"), "[ ]");
    Path b = Files.writeString(dir.resolve("b.json"), "[{\"benchmark\": \"z\"}]");
    Path joined = dir.resolve("joined.json");

    ResultFiles.join(List.of(a, empty, b), joined);

    List<?> results = (List<?>) Json.parse(Files.readString(joined));
    assertEquals(List.of("x", "y", "z"), results.stream().map(r -> ((Map<?, ?>) r).get("benchmark")).toList());
  }

  @Test
  void refusesAPartThatIsNotAnArray() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.json"), "{\"benchmark\": \"x\"}");

    assertThrows(IllegalArgumentException.class, () -> ResultFiles.join(List.of(bad), dir.resolve("out.json")));
  }
}
