package dev.blockcache.it.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in README.md and docs/ names a file of the repository (generated reports under
 * docs/results/ included) and, where it names a heading, a heading of that file: a report the docs cite but no
 * command refreshed, or a section renamed under a link, fails here.
 */
class DocLinksTest {
  private static final Path ROOT = Path.of("..");
  /** A Markdown link or image target: {@code ](target)} or {@code ](target#anchor)}, not a URL. */
  private static final Pattern LINK = Pattern.compile("\\]\\((?![a-z]+:)([^)#\\s]*)(?:#([^)\\s]+))?\\)");

  @Test
  void everyRelativeLinkOfTheDocsResolvesToAFileAndHeading() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
    }
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path page : pages) {
      Matcher m = LINK.matcher(Files.readString(page));
      while (m.find()) {
        links++;
        Path target = m.group(1).isEmpty() ? page : page.getParent().resolve(m.group(1)).normalize();
        if (!Files.exists(target)) {
          broken.add(ROOT.relativize(page) + " -> " + m.group(1) + " (no such file)");
        } else if (m.group(2) != null && !anchorsOf(target).contains(m.group(2))) {
          broken.add(ROOT.relativize(page) + " -> " + m.group(1) + "#" + m.group(2) + " (no such heading)");
        }
      }
    }
    assertFalse(links == 0, "no relative link found: the pattern or the docs changed");
    assertEquals(List.of(), broken);
  }

  /** GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
  private static List<String> anchorsOf(Path markdown) throws IOException {
    if (!markdown.toString().endsWith(".md")) {
      return List.of();
    }
    List<String> anchors = new ArrayList<>();
    for (String line : Files.readAllLines(markdown)) {
      if (line.startsWith("#")) {
        String heading = line.replaceFirst("^#+\\s*", "").trim().toLowerCase(java.util.Locale.ROOT);
        anchors.add(heading.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
      }
    }
    return anchors;
  }
}
