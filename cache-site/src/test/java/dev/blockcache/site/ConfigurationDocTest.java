package dev.blockcache.site;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/configuration.md} true: the key tables between its {@code keys:begin} and {@code keys:end}
 * markers must be exactly what {@link ConfigKeys} lists. On a mismatch the expected text is written to
 * {@code target/configuration-keys.md}, ready to paste.
 */
class ConfigurationDocTest {
  private static final String BEGIN = "<!-- keys:begin (generated from ConfigKeys; ConfigurationDocTest checks it) -->\n";
  private static final String END = "<!-- keys:end -->\n";

  @Test
  void theDocumentedKeysAreExactlyTheCatalogue() throws Exception {
    String expected = tables();
    Files.writeString(Path.of("target", "configuration-keys.md"), expected);
    String doc = Files.readString(Path.of("..", "docs", "configuration.md"));
    int begin = doc.indexOf(BEGIN);
    int end = doc.indexOf(END);
    String documented = begin < 0 || end < begin ? "(markers missing)" : doc.substring(begin + BEGIN.length(), end);
    assertEquals(expected, documented,
        "docs/configuration.md differs from ConfigKeys; the expected text is in"
            + " cache-site/target/configuration-keys.md");
  }

  private static String tables() {
    StringBuilder out = new StringBuilder();
    out.append("| key | default | meaning |\n|---|---|---|\n");
    for (ConfigKeys.Key key : ConfigKeys.ALL) {
      out.append("| `").append(key.name()).append("` | `").append(key.defaultValue()).append("` | ")
          .append(key.meaning()).append(" |\n");
    }
    out.append("\nHBase keys that are the storage engine's caching policy (reported, never applied by the cache):\n\n");
    for (String key : ConfigKeys.STORAGE_ENGINE_KEYS) {
      out.append("- `").append(key).append("`\n");
    }
    out.append("\nHBase cache keys that are not supported (reported with the reason):\n\n");
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(ConfigKeys.UNSUPPORTED).entrySet()) {
      out.append("- `").append(e.getKey()).append("`: ").append(e.getValue()).append('\n');
    }
    return out.toString();
  }
}
