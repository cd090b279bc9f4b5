package dev.blockcache.it.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The BOM an embedder imports lists every library module (a module of the build whose pom attaches a sources jar)
 * at the build's own version, and nothing else of ours: a version bump or a new library module that forgets the BOM
 * fails here.
 */
class BomTest {
  private static final Path ROOT = Path.of("..");

  @Test
  void theBomPinsEveryLibraryModuleAtTheBuildsVersion() throws Exception {
    Document parent = parse(ROOT.resolve("pom.xml"));
    String version = child(parent.getDocumentElement(), "version");
    Document bom = parse(ROOT.resolve("blockcache-bom/pom.xml"));
    assertEquals(version, child(bom.getDocumentElement(), "version"), "blockcache-bom's own version");

    List<String> libraries = new ArrayList<>();
    NodeList modules = parent.getElementsByTagName("module");
    for (int i = 0; i < modules.getLength(); i++) {
      String module = modules.item(i).getTextContent().trim();
      Path pom = ROOT.resolve(module).resolve("pom.xml");
      if (Files.readString(pom).contains("<artifactId>maven-source-plugin</artifactId>")) {
        libraries.add(module);
      }
    }
    assertFalse(libraries.isEmpty(), "no module attaches sources");

    Map<String, String> pinned = new TreeMap<>();
    NodeList dependencies = bom.getElementsByTagName("dependency");
    for (int i = 0; i < dependencies.getLength(); i++) {
      Element dependency = (Element) dependencies.item(i);
      assertEquals("dev.blockcache", child(dependency, "groupId"), "the BOM pins blockcache's modules only");
      assertEquals(version, child(dependency, "version"), child(dependency, "artifactId") + "'s version");
      pinned.put(child(dependency, "artifactId"), version);
    }
    assertEquals(libraries.stream().sorted().toList(), List.copyOf(pinned.keySet()),
        "library modules (those attaching sources) and the BOM's entries");
  }

  private static Document parse(Path pom) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return factory.newDocumentBuilder().parse(pom.toFile());
  }

  /** The text of {@code element}'s direct child named {@code name}. */
  private static String child(Element element, String name) {
    for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return e.getTextContent().trim();
      }
    }
    throw new AssertionError(element.getTagName() + " has no <" + name + ">");
  }
}
